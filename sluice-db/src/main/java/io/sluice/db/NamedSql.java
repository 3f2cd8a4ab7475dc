package io.sluice.db;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A statement with named parameters ({@code :id}) made into JDBC's form, each name replaced by a
 * {@code ?} bound by position. A colon inside a string literal ({@code ':x'}), a quoted identifier,
 * a comment ({@code -- :x}, {@code /* :x *}{@code /}), a PostgreSQL dollar-quoted text ({@code
 * $$:x$$}) or a PostgreSQL cast ({@code ::int}) is left as it is: the values are always bound,
 * never written into the SQL.
 *
 * @param sql the statement as written
 * @param jdbcSql the statement with each parameter a {@code ?}
 * @param positions the parameter of each {@code ?}, in order (a name used twice is there twice)
 */
public record NamedSql(String sql, String jdbcSql, List<String> positions) {

  /** Keeps the list unmodifiable. */
  public NamedSql {
    Objects.requireNonNull(sql, "sql");
    positions = List.copyOf(positions);
  }

  /** The distinct parameter names, in the order they first appear. */
  public Set<String> names() {
    return new LinkedHashSet<>(positions);
  }

  /** {@code sql} parsed. */
  public static NamedSql parse(String sql) {
    Objects.requireNonNull(sql, "sql");
    StringBuilder out = new StringBuilder(sql.length());
    List<String> names = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      int end;
      if (c == '\'' || c == '"' || c == '`') {
        end = quoted(sql, i, c);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        end = sql.indexOf('\n', i);
        end = end < 0 ? n : end;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        end = sql.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
      } else if (c == '$' && dollarTag(sql, i) != null) {
        String tag = dollarTag(sql, i);
        end = sql.indexOf(tag, i + tag.length());
        end = end < 0 ? n : end + tag.length();
      } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
        end = i + 2;
      } else if (c == ':' && i + 1 < n && nameStart(sql.charAt(i + 1)) && !afterName(sql, i)) {
        end = i + 2;
        while (end < n && namePart(sql.charAt(end))) {
          end++;
        }
        names.add(sql.substring(i + 1, end));
        out.append('?');
        i = end;
        continue;
      } else {
        end = i + 1;
      }
      out.append(sql, i, end);
      i = end;
    }
    return new NamedSql(sql, out.toString(), names);
  }

  /** The end (exclusive) of the literal or identifier opened at {@code start}; doubled closes. */
  private static int quoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      if (c == '\\' && quote != '"' && i + 1 < sql.length()) {
        i += 2; // MySQL's and PostgreSQL's E'' backslash escapes: a \' does not close the text
        continue;
      }
      i++;
    }
    return sql.length();
  }

  /** The dollar-quote tag ({@code $$}, {@code $body$}) opened at {@code start}, or null. */
  private static String dollarTag(String sql, int start) {
    if (start > 0 && namePart(sql.charAt(start - 1))) {
      return null; // part of an identifier (PostgreSQL allows $ in names)
    }
    int i = start + 1;
    if (i < sql.length() && Character.isDigit(sql.charAt(i))) {
      return null; // $1: a positional parameter
    }
    while (i < sql.length() && namePart(sql.charAt(i))) {
      i++;
    }
    return i < sql.length() && sql.charAt(i) == '$' ? sql.substring(start, i + 1) : null;
  }

  /** Whether the colon at {@code i} follows a name ({@code a:b} in an array slice or a URL). */
  private static boolean afterName(String sql, int i) {
    return i > 0 && (namePart(sql.charAt(i - 1)) || sql.charAt(i - 1) == ':');
  }

  private static boolean nameStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean namePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
