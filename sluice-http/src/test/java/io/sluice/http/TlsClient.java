package io.sluice.http;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/** A TLS client on the JDK's sockets, trusting a test authority, with a certificate or not. */
final class TlsClient {

  private TlsClient() {}

  /** A context trusting {@code authority}, presenting {@code own} when not null. */
  static SSLContext trusting(Path authority, Certificates.Issued own) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(authority)) {
      Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
      trust.setCertificateEntry("authority", ca);
    }
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    KeyManagerFactory keyManagers = null;
    if (own != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(own.keyStore())) {
        keys.load(in, Certificates.PASSWORD.toCharArray());
      }
      keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, Certificates.PASSWORD.toCharArray());
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        keyManagers == null ? null : keyManagers.getKeyManagers(),
        trustManagers.getTrustManagers(),
        null);
    return context;
  }

  /**
   * A socket to 127.0.0.1:{@code port} whose handshake is done, speaking only {@code protocols}.
   */
  static SSLSocket connect(SSLContext context, int port, String... protocols) throws Exception {
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    if (protocols.length > 0) {
      socket.setEnabledProtocols(protocols);
    }
    socket.startHandshake();
    return socket;
  }

  /** The subject of the certificate the server presented on {@code socket}. */
  static String served(SSLSocket socket) throws Exception {
    return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
        .getSubjectX500Principal()
        .getName();
  }
}
