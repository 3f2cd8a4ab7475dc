package io.sluice.http.config;

import io.sluice.config.spi.ByteSize;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.Processor;
import io.sluice.http.HttpRequestConfig;
import io.sluice.http.HttpRequestProcessor;
import io.sluice.http.TlsConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code http-request} processor. */
final class HttpRequestComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "http-request";
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    TlsMapper tls = new TlsMapper(context.baseDirectory(), context.problems());
    Template url = context.template(node, "url", null);
    Map<String, Template> headers = new LinkedHashMap<>();
    ConfigNode headerNode = node.get("headers");
    if (headerNode.isPresent()) {
      headerNode
          .node()
          .properties()
          .forEach(
              header ->
                  headers.put(
                      header.getKey(), context.template(headerNode, header.getKey(), null)));
    }
    HttpRequestConfig d = defaultConfig();
    HttpRequestConfig.Builder config =
        HttpRequestConfig.builder(node.text("method", "GET"), url)
            .headers(headers)
            .connectTimeout(node.duration("connectTimeout", d.connectTimeout()))
            .responseTimeout(node.duration("responseTimeout", d.responseTimeout()))
            .maxConnectionsPerHost(node.integer("maxConnectionsPerHost", d.maxConnectionsPerHost()))
            .maxResponseSize(node.size("maxResponseSize", d.maxResponseSize()))
            .failOnErrorStatus(node.bool("failOnErrorStatus", d.failOnErrorStatus()));
    TlsConfig tlsConfig = tls.map(node, false);
    config.tls(tlsConfig);
    if (url == null || headers.containsValue(null) || tls.broken(node, tlsConfig)) {
      return null;
    }
    HttpRequestConfig built = context.problems().attempt(node.path(), config::build);
    return built == null ? null : new HttpRequestProcessor(built);
  }

  private static HttpRequestConfig defaultConfig() {
    return HttpRequestConfig.builder("GET", Template.parse("url", "http://localhost/")).build();
  }

  @Override
  public Map<String, Object> defaults() {
    HttpRequestConfig request = defaultConfig();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/connectTimeout", request.connectTimeout());
    d.put("/properties/responseTimeout", request.responseTimeout());
    d.put("/properties/maxConnectionsPerHost", request.maxConnectionsPerHost());
    d.put("/properties/maxResponseSize", new ByteSize(request.maxResponseSize()));
    d.put("/properties/failOnErrorStatus", request.failOnErrorStatus());
    d.put("/$defs/tlsRequester/properties/protocols", TlsConfig.DEFAULT_PROTOCOLS);
    return d;
  }
}
