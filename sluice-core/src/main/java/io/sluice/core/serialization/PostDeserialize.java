package io.sluice.core.serialization;

/**
 * Implemented by a stored type that must finish itself after it is read (rebuild a transient cache,
 * check an invariant). Every serializer calls it on the value it returns.
 */
public interface PostDeserialize {

  /** Called once on a value just read, before it is returned. */
  void afterDeserialize();

  /** Calls the hook when {@code value} has one; returns {@code value}. */
  static Object apply(Object value) {
    if (value instanceof PostDeserialize hook) {
      hook.afterDeserialize();
    }
    return value;
  }
}
