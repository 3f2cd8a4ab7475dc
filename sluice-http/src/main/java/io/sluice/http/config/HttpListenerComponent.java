package io.sluice.http.config;

import io.sluice.config.spi.ByteSize;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SourceComponent;
import io.sluice.core.spi.Source;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpServerConfig;
import io.sluice.http.TlsConfig;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The {@code http-listener} source; the listeners of one file on one host and port must agree, as
 * they share one server ({@link SharedListeners}).
 */
final class HttpListenerComponent implements SourceComponent {

  @Override
  public String key() {
    return "http-listener";
  }

  @Override
  public Source map(ConfigNode s, MappingContext context) {
    ProblemCollector problems = context.problems();
    TlsMapper tlsMapper = new TlsMapper(context.baseDirectory(), problems);
    HttpServerConfig d = HttpServerConfig.builder(0).build();
    long maxInitialLineLength = s.size("maxInitialLineLength", d.maxInitialLineLength());
    long maxHeaderSize = s.size("maxHeaderSize", d.maxHeaderSize());
    HttpServerConfig.Builder server =
        HttpServerConfig.builder(s.integer("port", 0))
            .host(s.text("host", d.host()))
            .maxBodySize(s.size("maxBodySize", d.maxBodySize()))
            .maxHeaderSize((int) Math.min(Integer.MAX_VALUE, maxHeaderSize))
            .maxInitialLineLength((int) Math.min(Integer.MAX_VALUE, maxInitialLineLength))
            .requestTimeout(s.duration("requestTimeout", d.requestTimeout()))
            .idleTimeout(s.duration("idleTimeout", d.idleTimeout()))
            .maxConnections(s.integer("maxConnections", d.maxConnections()))
            .keepAlive(s.bool("keepAlive", d.keepAlive()))
            .backlog(s.integer("backlog", d.backlog()))
            .retryAfter(s.duration("retryAfter", d.retryAfter()))
            .shutdownTimeout(s.duration("shutdownTimeout", d.shutdownTimeout()));
    TlsConfig tls = tlsMapper.map(s, true);
    HttpServerConfig built =
        tlsMapper.broken(s, tls) ? null : problems.attempt(s.path(), server.tls(tls)::build);
    if (built != null) {
      context
          .shared(SharedListeners.class, () -> new SharedListeners(problems))
          .add(s.path(), built);
    }
    String path = s.text("path", "/");
    Set<String> methods = new LinkedHashSet<>(s.texts("methods"));
    boolean streaming = s.bool("streaming", false);
    // The path is checked even when the server settings are broken: every problem at once.
    Source listener =
        problems.attempt(
            s.path(),
            () -> new HttpListenerSource(built == null ? d : built, path, methods, streaming));
    return built == null ? null : context.parsedFirst(listener, s);
  }

  @Override
  public Map<String, Object> defaults() {
    HttpServerConfig http = HttpServerConfig.builder(0).build();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/host", http.host());
    d.put("/properties/maxBodySize", new ByteSize(http.maxBodySize()));
    d.put("/properties/maxHeaderSize", new ByteSize(http.maxHeaderSize()));
    d.put("/properties/maxInitialLineLength", new ByteSize(http.maxInitialLineLength()));
    d.put("/properties/requestTimeout", http.requestTimeout());
    d.put("/properties/idleTimeout", http.idleTimeout());
    d.put("/properties/maxConnections", http.maxConnections());
    d.put("/properties/keepAlive", http.keepAlive());
    d.put("/properties/backlog", http.backlog());
    d.put("/properties/retryAfter", http.retryAfter());
    d.put("/properties/shutdownTimeout", http.shutdownTimeout());
    d.put("/$defs/tlsListener/properties/protocols", TlsConfig.DEFAULT_PROTOCOLS);
    d.put("/$defs/tlsListener/properties/clientAuth", TlsConfig.ClientAuth.NONE);
    d.put("/$defs/tlsListener/properties/reloadInterval", TlsConfig.DEFAULT_RELOAD_INTERVAL);
    return d;
  }
}
