package io.sluice.http.internal;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * Checks a request's version and target as soon as its head is decoded, before it is routed: the
 * codec takes any {@code NAME/major.minor} version and any target, while routing and the message
 * decode the target's percent-escapes.
 */
final class RequestTarget {

  private RequestTarget() {}

  /** Why the request's version is not served, or null when it is HTTP/1.x. */
  static String unsupportedVersion(HttpRequest request) {
    HttpVersion version = request.protocolVersion();
    if ("HTTP".equals(version.protocolName()) && version.majorVersion() == 1) {
      return null;
    }
    return "only HTTP/1.0 and HTTP/1.1 are served, not " + version.text();
  }

  /**
   * Makes an absolute-form target ({@code http://host:port/path?query}, what a client sends to a
   * proxy and a server must accept) the origin form it routes as ({@code /path?query}); then
   * returns why the target cannot be decoded, or null when it can.
   */
  static String check(HttpRequest request) {
    String target = request.uri();
    int scheme = target.indexOf("://");
    if (scheme > 0 && !target.startsWith("/")) {
      int path = target.indexOf('/', scheme + 3);
      int query = target.indexOf('?', scheme + 3);
      int start = path < 0 ? query : query < 0 ? path : Math.min(path, query);
      target =
          start < 0
              ? "/"
              : target.charAt(start) == '?'
                  ? "/" + target.substring(start)
                  : target.substring(start);
      request.setUri(target);
    }
    if (target.indexOf('%') < 0) {
      return null; // nothing to decode wrongly: the usual request costs no decoding here
    }
    QueryStringDecoder decoder = new QueryStringDecoder(target);
    try {
      decoder.path();
    } catch (IllegalArgumentException e) {
      return "the path is not valid percent-encoding (" + e.getMessage() + ")";
    }
    try {
      decoder.parameters();
    } catch (IllegalArgumentException e) {
      return "the query is not valid percent-encoding (" + e.getMessage() + ")";
    }
    return null;
  }
}
