/**
 * Transactions a {@code try} scope opens on a resource the application holds by name (a data
 * source): the resource ({@link io.sluice.core.transaction.TransactionalResource}), its transaction
 * ({@link io.sluice.core.transaction.Transaction}), the registry of resources by name, and what a
 * message carries ({@link io.sluice.core.transaction.OpenTransactions}). The package uses nothing
 * of the core, so the message, the bottom layer, can carry a transaction.
 */
package io.sluice.core.transaction;
