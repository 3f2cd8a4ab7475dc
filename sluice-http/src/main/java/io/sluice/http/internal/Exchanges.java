package io.sluice.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpRequestConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP exchanges to messages and back: the listener's requests and responses as {@link
 * HttpListenerSource} documents, the requester's as {@link io.sluice.http.HttpRequestProcessor}
 * does.
 */
public final class Exchanges {

  private static final String TEXT = "text/plain; charset=UTF-8";

  private Exchanges() {}

  /** The message a request becomes, with {@code payload} as its body. */
  static Message toMessage(
      HttpRequest request,
      Object payload,
      QueryStringDecoder uri,
      Route route,
      Map<String, String> pathParams,
      String remoteAddress,
      String clientCertificate) {
    Message message =
        Message.of(
            payload,
            Map.ofEntries(
                Map.entry("method", request.method().name()),
                Map.entry("path", uri.path()),
                Map.entry("requestUri", request.uri()),
                Map.entry("queryString", uri.rawQuery()),
                Map.entry("listenerPath", route.pattern().toString()),
                Map.entry("version", request.protocolVersion().text()),
                Map.entry("remoteAddress", remoteAddress),
                Map.entry("headers", headers(request.headers())),
                Map.entry("queryParams", firstValues(uri.parameters())),
                Map.entry("pathParams", Map.copyOf(pathParams))));
    return clientCertificate == null
        ? message
        : message.withAttributes(
            with(message.attributes(), "clientCertificate", clientCertificate));
  }

  private static Map<String, Object> with(
      Map<String, Object> attributes, String key, Object value) {
    Map<String, Object> more = new HashMap<>(attributes);
    more.put(key, value);
    return more;
  }

  /**
   * Headers as an immutable map of lower-case names to values, repeated headers joined by ", ". It
   * is built on every request, so the usual case (no name twice) goes straight to one immutable
   * map.
   */
  private static Map<String, String> headers(HttpHeaders headers) {
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] entries = new Map.Entry[headers.size()];
    int i = 0;
    for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
        it.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> header = it.next();
      entries[i++] =
          Map.entry(
              header.getKey().toString().toLowerCase(Locale.ROOT), header.getValue().toString());
    }
    try {
      return Map.ofEntries(entries);
    } catch (IllegalArgumentException sameNameTwice) {
      Map<String, String> joined = new HashMap<>();
      for (Map.Entry<String, String> entry : entries) {
        joined.merge(entry.getKey(), entry.getValue(), (a, b) -> a + ", " + b);
      }
      return Map.copyOf(joined);
    }
  }

  private static Map<String, String> firstValues(Map<String, List<String>> parameters) {
    if (parameters.isEmpty()) {
      return Map.of();
    }
    Map<String, String> map = new HashMap<>();
    parameters.forEach((name, values) -> map.put(name, values.isEmpty() ? "" : values.getFirst()));
    return Map.copyOf(map);
  }

  /** No body: null; a text body: a String in its charset (UTF-8 unless said); else bytes. */
  static Object body(FullHttpMessage message) {
    ByteBuf content = message.content();
    if (!content.isReadable()) {
      return null;
    }
    String type = message.headers().get(HttpHeaderNames.CONTENT_TYPE);
    if (type != null && isText(type.toLowerCase(Locale.ROOT))) {
      return content.toString(HttpUtil.getCharset(message, StandardCharsets.UTF_8));
    }
    return ByteBufUtil.getBytes(content);
  }

  private static boolean isText(String type) {
    return type.startsWith("text/")
        || type.startsWith("application/json")
        || type.startsWith("application/xml")
        || type.startsWith("application/x-www-form-urlencoded")
        || type.contains("+json")
        || type.contains("+xml");
  }

  /**
   * The bytes a payload is sent as: bytes as they are, null as none, a stream read to its end (the
   * caller is off the event loop), anything else as UTF-8 text.
   */
  private static byte[] bytes(Object payload) {
    if (payload == null) {
      return new byte[0];
    }
    if (payload instanceof InputStream stream) {
      try (stream) {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new SluiceException("the payload stream could not be read: " + e.getMessage(), e);
      }
    }
    return payload instanceof byte[] bytes
        ? bytes
        : String.valueOf(payload).getBytes(StandardCharsets.UTF_8);
  }

  /** The content type a payload is sent with, or null for none. */
  private static String contentType(Object payload) {
    if (payload == null) {
      return null;
    }
    return payload instanceof byte[] || payload instanceof InputStream
        ? "application/octet-stream"
        : TEXT;
  }

  /** The response a flow's message makes. */
  static FullHttpResponse toResponse(Message message) {
    HttpResponseStatus status = HttpResponseStatus.valueOf(status(message));
    byte[] body = bytes(message.payload());
    String type = contentType(message.payload());
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
    if (type != null) {
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    }
    if (message.variable(HttpListenerSource.HEADERS) instanceof Map<?, ?> headers) {
      headers.forEach(
          (name, value) -> {
            if (name != null && value != null) {
              String key = name.toString();
              if (value instanceof Iterable<?> values) {
                response.headers().remove(key);
                values.forEach(v -> response.headers().add(key, String.valueOf(v)));
              } else {
                response.headers().set(key, String.valueOf(value));
              }
            }
          });
    }
    HttpUtil.setContentLength(response, body.length);
    return response;
  }

  /** The status variable as a number from 100 to 599; 200 when unset. */
  private static int status(Message message) {
    Object value = message.variable(HttpListenerSource.STATUS);
    if (value == null) {
      return 200;
    }
    int status;
    try {
      status = value instanceof Number n ? n.intValue() : Integer.parseInt(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new SluiceException(
          "variable "
              + HttpListenerSource.STATUS
              + " is '"
              + value
              + "', not a status code: set it to a number from 100 to 599");
    }
    if (status < 100 || status > 599) {
      throw new SluiceException(
          "variable " + HttpListenerSource.STATUS + " is " + status + ", not from 100 to 599");
    }
    return status;
  }

  /** A short plain-text answer the server gives itself; never a stack trace. */
  static FullHttpResponse plain(HttpResponseStatus status, String text) {
    byte[] body =
        (status.code() + " " + status.reasonPhrase() + ": " + text + "\n")
            .getBytes(StandardCharsets.UTF_8);
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, TEXT);
    HttpUtil.setContentLength(response, body.length);
    return response;
  }

  /**
   * Parses an {@code http://} or {@code https://} URL; fails naming the rule when it is not one.
   */
  public static URI httpUri(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("url '" + url + "' is not a URL: " + e.getMessage());
    }
    String scheme = uri.getScheme();
    if (!("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "url '" + url + "' must be http://host[:port]/path or https://host[:port]/path");
    }
    return uri;
  }

  /** Whether a URL {@link #httpUri} parsed is {@code https}. */
  public static boolean secure(URI uri) {
    return "https".equalsIgnoreCase(uri.getScheme());
  }

  /** The request an outbound call sends: the config's method and headers, the payload as body. */
  public static FullHttpRequest request(HttpRequestConfig config, URI uri, Message message) {
    String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      target += "?" + uri.getRawQuery();
    }
    Object payload = message.payload();
    FullHttpRequest request =
        new DefaultFullHttpRequest(
            HttpVersion.HTTP_1_1,
            HttpMethod.valueOf(config.method()),
            target,
            Unpooled.wrappedBuffer(bytes(payload)));
    HttpHeaders headers = request.headers();
    headers.set(
        HttpHeaderNames.HOST,
        uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort());
    if (contentType(payload) != null) {
      headers.set(HttpHeaderNames.CONTENT_TYPE, contentType(payload));
    }
    config.headers().forEach((name, value) -> headers.set(name, value.render(message)));
    HttpUtil.setContentLength(request, request.content().readableBytes());
    HttpUtil.setKeepAlive(request, true);
    return request;
  }

  /** The message a response makes: the body as payload, status and headers as attributes. */
  public static Message responseMessage(Message request, FullHttpResponse response) {
    Map<String, Object> attributes = new HashMap<>();
    attributes.put("statusCode", response.status().code());
    attributes.put("reasonPhrase", response.status().reasonPhrase());
    attributes.put("headers", headers(response.headers()));
    return request.withPayload(body(response)).withAttributes(attributes);
  }

  /** Marks the response as the connection's last. */
  static void closing(FullHttpResponse response) {
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
  }
}
