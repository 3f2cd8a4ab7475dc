package io.sluice.config;

/** A user component for the tests: a plain class with one public method. */
public class Enricher {

  /** Appends a mark. */
  public String enrich(String payload) {
    return payload + "+enriched";
  }
}
