package io.sluice.http.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.sluice.http.TlsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener's TLS: the context each new connection's handler comes from, loaded again when its
 * files changed. A new connection looks at the files' modification time, size and identity at most
 * once per reloadInterval (the first to come after the interval looks, the others go on with what
 * is loaded); changed files make a new context for the connections that follow, while the open ones
 * keep the handler they started with. Files that do not load (a renewal half written, a wrong key)
 * leave the previous context serving, with a warning, and are tried again when they change again.
 */
final class ServerTls {

  private static final Logger log = LoggerFactory.getLogger(ServerTls.class);

  private final TlsConfig config;
  private final String server;
  private final ReentrantLock checking = new ReentrantLock();
  private volatile SslContext context;
  private volatile List<Object> stamps;
  private volatile long nextCheckNanos;

  /** Loads the context; fails naming the file when it cannot. */
  ServerTls(TlsConfig config, String server) {
    this.config = config;
    this.server = server;
    this.stamps = stamps();
    this.context = TlsContexts.server(config);
    this.nextCheckNanos = System.nanoTime() + config.reloadInterval().toNanos();
    log.info("HTTPS on {}: {}", server, TlsContexts.describe(TlsContexts.identity(config)));
  }

  /** The handler of a new connection, from the files as they are (looked at once per interval). */
  SslHandler newHandler(ByteBufAllocator alloc, long handshakeTimeoutMillis, HttpMetrics metrics) {
    if (System.nanoTime() - nextCheckNanos >= 0 && checking.tryLock()) {
      try {
        reloadIfChanged(metrics);
      } finally {
        nextCheckNanos = System.nanoTime() + config.reloadInterval().toNanos();
        checking.unlock();
      }
    }
    SslHandler handler = context.newHandler(alloc);
    handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    return handler;
  }

  private void reloadIfChanged(HttpMetrics metrics) {
    List<Object> now = stamps();
    if (now.equals(stamps)) {
      return;
    }
    stamps = now;
    try {
      SslContext loaded = TlsContexts.server(config);
      context = loaded;
      metrics.tlsReload("reloaded");
      log.info(
          "HTTPS on {} reloaded its certificate: {}",
          server,
          TlsContexts.describe(TlsContexts.identity(config)));
    } catch (RuntimeException e) {
      metrics.tlsReload("failed");
      log.warn(
          "HTTPS on {}: the changed TLS files do not load ({}); the previous certificate is still"
              + " served, and the files are tried again when they change",
          server,
          e.getMessage());
    }
  }

  /** The subject of the client's verified certificate on a TLS connection; else null. */
  static String clientSubject(ChannelPipeline pipeline) {
    SslHandler tls = pipeline.get(SslHandler.class);
    if (tls != null) {
      try {
        if (tls.engine().getSession().getPeerCertificates()[0] instanceof X509Certificate c) {
          return c.getSubjectX500Principal().getName();
        }
      } catch (SSLPeerUnverifiedException none) {
        return null; // the client showed no certificate
      }
    }
    return null;
  }

  /** What tells that a file changed: its modification time, size and identity (inode). */
  private List<Object> stamps() {
    List<Object> stamps = new ArrayList<>();
    Stream.of(config.certificate(), config.key(), config.keyStore(), config.trustedCertificates())
        .filter(Objects::nonNull)
        .forEach(file -> stamps.add(stamp(file)));
    return stamps;
  }

  private static Object stamp(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return List.of(a.lastModifiedTime(), a.size(), String.valueOf(a.fileKey()));
    } catch (IOException e) {
      return "missing: " + e.getMessage();
    }
  }
}
