package io.sluice.core.serialization.spi;

/**
 * A serializer met a class its allow-list does not admit and refused it before instantiating it.
 * The message names the class and the setting that would allow it.
 */
public class ClassNotAllowedException extends SerializationException {

  private final String className;

  /** Class {@code className} was refused. */
  public ClassNotAllowedException(String className) {
    super(
        "Class '"
            + className
            + "' is not allowed to be deserialized. If it is yours and safe,"
            + " allow it with serialization.allow: ["
            + suggestion(className)
            + "]");
    this.className = className;
  }

  @Override
  public RecordFault fault() {
    return RecordFault.CLASS_NOT_ALLOWED;
  }

  /** The refused class. */
  public String className() {
    return className;
  }

  private static String suggestion(String className) {
    int dimensions = 0;
    while (dimensions < className.length() && className.charAt(dimensions) == '[') {
      dimensions++;
    }
    if (dimensions > 0 && className.startsWith("L", dimensions) && className.endsWith(";")) {
      className = className.substring(dimensions + 1, className.length() - 1);
    }
    int dot = className.lastIndexOf('.');
    return dot < 0 ? className : className.substring(0, dot) + ".*";
  }
}
