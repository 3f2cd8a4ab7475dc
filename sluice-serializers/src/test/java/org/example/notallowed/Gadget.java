package org.example.notallowed;

/** A class outside every default allow-list. */
public class Gadget {
  public String command = "calc";

  /** For serializers. */
  public Gadget() {}
}
