package org.example.notallowed;

import java.io.Serializable;

/**
 * A harmless class outside every default allow-list: what a serializer refuses to read unless
 * {@code serialization.allow} admits it. The contract tests also define copies of it under the
 * names of well-known deserialization gadgets.
 */
public class Gadget implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A field, so that the serialized form holds more than the class name. */
  public String command = "calc";

  /** A gadget, for serializers that need a no-argument constructor. */
  public Gadget() {}
}
