package io.sluice.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.sluice.core.Message;
import io.sluice.http.HttpListenerSource;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Requests to messages and messages to responses, as {@link HttpListenerSource} documents. */
final class RequestMapping {

  private static final String TEXT = "text/plain; charset=UTF-8";

  private RequestMapping() {}

  /** The message a request becomes. */
  static Message toMessage(
      FullHttpRequest request,
      QueryStringDecoder uri,
      Route route,
      Map<String, String> pathParams,
      String remoteAddress) {
    Map<String, Object> attributes = new HashMap<>();
    attributes.put("method", request.method().name());
    attributes.put("path", uri.path());
    attributes.put("requestUri", request.uri());
    attributes.put("queryString", uri.rawQuery());
    attributes.put("listenerPath", route.pattern().toString());
    attributes.put("version", request.protocolVersion().text());
    attributes.put("remoteAddress", remoteAddress);
    attributes.put("headers", headers(request.headers()));
    attributes.put("queryParams", firstValues(uri.parameters()));
    attributes.put("pathParams", Map.copyOf(pathParams));
    return Message.of(body(request), attributes);
  }

  private static Map<String, String> headers(HttpHeaders headers) {
    Map<String, String> map = new HashMap<>();
    for (Map.Entry<String, String> header : headers) {
      map.merge(
          header.getKey().toLowerCase(Locale.ROOT), header.getValue(), (a, b) -> a + ", " + b);
    }
    return Map.copyOf(map);
  }

  private static Map<String, String> firstValues(Map<String, List<String>> parameters) {
    Map<String, String> map = new HashMap<>();
    parameters.forEach((name, values) -> map.put(name, values.isEmpty() ? "" : values.getFirst()));
    return Map.copyOf(map);
  }

  /** No body: null; a text body: a String in its charset (UTF-8 unless said); else bytes. */
  private static Object body(FullHttpRequest request) {
    ByteBuf content = request.content();
    if (!content.isReadable()) {
      return null;
    }
    String type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
    if (type != null && isText(type.toLowerCase(Locale.ROOT))) {
      return content.toString(HttpUtil.getCharset(request, StandardCharsets.UTF_8));
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

  /** The response a flow's message makes. */
  static FullHttpResponse toResponse(Message message) {
    HttpResponseStatus status = HttpResponseStatus.valueOf(status(message));
    Object payload = message.payload();
    byte[] body;
    String type = null;
    if (payload == null) {
      body = new byte[0];
    } else if (payload instanceof byte[] bytes) {
      body = bytes;
      type = "application/octet-stream";
    } else {
      body = String.valueOf(payload).getBytes(StandardCharsets.UTF_8);
      type = TEXT;
    }
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
      throw new IllegalStateException(
          "variable " + HttpListenerSource.STATUS + " is '" + value + "', not a status code");
    }
    if (status < 100 || status > 599) {
      throw new IllegalStateException(
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

  /** Marks the response as the connection's last. */
  static void closing(FullHttpResponse response) {
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
  }
}
