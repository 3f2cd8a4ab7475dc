package io.sluice.core.transaction;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * A resource that runs operations in transactions, held by the application by name: sluice-db
 * registers one per data source in the application's {@link TransactionalResources}. A {@code try}
 * scope with {@code transaction: <name>} holds it from its start to its stop and begins a
 * transaction for each message that enters.
 */
public interface TransactionalResource {

  /** The resource's name (the data source's). */
  String name();

  /**
   * Where its transactions run, in the form {@link DatabaseIdentity} gives (so the application's
   * own store can tell it shares the database); null when unknown.
   */
  String database();

  /**
   * Taken by each scope that uses the resource when it starts: opens what the transactions need
   * (the data source's pool), its meters on {@code registry}. Each call is matched by one {@link
   * #release}.
   */
  void acquire(MeterRegistry registry);

  /** Gives back what {@link #acquire} took; the last release closes it. */
  void release();

  /**
   * A new transaction. It is lazy: no connection is taken until the first operation joins it, so a
   * scope whose message takes a path with no operation costs nothing.
   */
  Transaction begin();
}
