package io.sluice.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Reads the one private field of a given type from a core object that exposes no accessor for it
 * (FileSource's config, FileWriteProcessor's directory, LoggerProcessor's level). By type rather
 * than by name, so that renaming a field does not break the tests.
 */
final class Fields {

  private Fields() {}

  static <T> T ofType(Object owner, Class<T> type) {
    T found = null;
    boolean seen = false;
    for (Field field : owner.getClass().getDeclaredFields()) {
      if (field.getType() == type && !Modifier.isStatic(field.getModifiers())) {
        if (seen) {
          throw new AssertionError(owner.getClass() + " has several fields of type " + type);
        }
        try {
          field.setAccessible(true);
          @SuppressWarnings("unchecked") // type may be primitive, where Class.cast cannot help
          T value = (T) field.get(owner);
          found = value;
          seen = true;
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    if (!seen) {
      throw new AssertionError(owner.getClass() + " has no field of type " + type);
    }
    return found;
  }
}
