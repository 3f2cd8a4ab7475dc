package io.sluice.core.transaction;

/**
 * The transactions a message is inside, innermost first: one per resource, since a {@code try} on a
 * resource the message is in a transaction of already joins that one. Immutable; a message holds it
 * apart from its variables, so expressions never see it and nothing stores it.
 *
 * @param innermost the transaction of the innermost scope
 * @param outer the transactions of the scopes around it, or null
 */
public record OpenTransactions(Transaction innermost, OpenTransactions outer) {

  /** The transaction on the resource named {@code resourceName}, or null. */
  public Transaction on(String resourceName) {
    for (OpenTransactions t = this; t != null; t = t.outer) {
      if (t.innermost.resourceName().equals(resourceName)) {
        return t.innermost;
      }
    }
    return null;
  }

  /** These transactions without {@code transaction} (its scope ended); null when none is left. */
  public OpenTransactions without(Transaction transaction) {
    if (innermost == transaction) {
      return outer;
    }
    OpenTransactions rest = outer == null ? null : outer.without(transaction);
    return rest == outer ? this : new OpenTransactions(innermost, rest);
  }
}
