package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener speaks only the TLS versions it is given, never below TLSv1.2, and asks clients for a
 * certificate as configured: a required one missing or from another authority ends the handshake.
 */
class TlsRefusesOldProtocolsAndUntrustedClientsTest {

  @TempDir static Path directory;
  @TempDir static Path strangers;
  static Certificates authority;
  static Certificates.Issued server;
  static Certificates.Issued client;
  static Certificates.Issued stranger;

  private static final Processor WHO =
      Processor.of(
          ProcessingType.CPU_LITE,
          m -> m.withPayload("client " + m.attribute("clientCertificate")));

  @BeforeAll
  static void issue() throws Exception {
    authority = Certificates.authority(directory);
    server = authority.issue("server", "dns:localhost", "ip:127.0.0.1");
    client = authority.issue("client");
    stranger = Certificates.authority(strangers).issue("stranger");
  }

  private static Listening https(TlsConfig.Builder tls) {
    return Listening.start(
        Listening.server().tls(tls.build()).build(),
        "/*",
        ProcessingStrategy.defaultStrategy(),
        f -> f.processor(WHO));
  }

  private static TlsConfig.Builder tls() {
    return TlsConfig.builder().certificate(server.certificate(), server.key());
  }

  private static String get(SSLSocket socket) throws Exception {
    try (RawClient raw = new RawClient(socket)) {
      return raw.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").readUntilClosed();
    }
  }

  @Test
  void tls11IsRefused() throws Exception {
    try (Listening http = https(tls())) {
      // openssl as the client: the JDK's own client will not even offer TLSv1.1.
      Process openssl =
          new ProcessBuilder(
                  "openssl",
                  "s_client",
                  "-connect",
                  "127.0.0.1:" + http.listener.port(),
                  "-tls1_1",
                  "-cipher",
                  "DEFAULT@SECLEVEL=0")
              .redirectErrorStream(true)
              .start();
      openssl.getOutputStream().close();
      String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(openssl.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(openssl.exitValue()).as(output).isNotZero();
      assertThat(output).containsIgnoringCase("alert");
      await().until(() -> http.refused("tls-handshake") == 1);
    }
  }

  @Test
  void aListenerGivenOnlyTls13RefusesATls12Client() throws Exception {
    try (Listening http = https(tls().protocols(List.of("TLSv1.3")))) {
      var trusting = TlsClient.trusting(authority.authority, null);
      assertThatThrownBy(() -> TlsClient.connect(trusting, http.listener.port(), "TLSv1.2"))
          .isInstanceOf(SSLException.class);
      await().until(() -> http.refused("tls-handshake") == 1);
      try (SSLSocket socket = TlsClient.connect(trusting, http.listener.port(), "TLSv1.3")) {
        assertThat(socket.getSession().getProtocol()).isEqualTo("TLSv1.3");
      }
    }
  }

  @Test
  void aRequiredClientCertificateIsCheckedAndShownToTheFlow() throws Exception {
    TlsConfig.Builder required =
        tls().clientAuth(TlsConfig.ClientAuth.REQUIRE).trustedCertificates(authority.authority);
    try (Listening http = https(required)) {
      int port = http.listener.port();
      try (SSLSocket socket =
          TlsClient.connect(TlsClient.trusting(authority.authority, client), port)) {
        assertThat(get(socket)).startsWith("HTTP/1.1 200").endsWith("client CN=client");
      }
      // In TLS 1.3 the client's handshake ends before the server checked its certificate: it hears
      // of the refusal as an alert when it reads, or as a broken pipe when the server closed first.
      // The server's own count says it refused both.
      assertThatThrownBy(
              () -> get(TlsClient.connect(TlsClient.trusting(authority.authority, null), port)))
          .isInstanceOf(IOException.class);
      assertThatThrownBy(
              () -> get(TlsClient.connect(TlsClient.trusting(authority.authority, stranger), port)))
          .isInstanceOf(IOException.class);
      await().until(() -> http.refused("tls-handshake") == 2);
    }
  }

  @Test
  void theRequesterPresentsItsCertificateWhenTheListenerRequiresOne() throws Exception {
    TlsConfig.Builder required =
        tls().clientAuth(TlsConfig.ClientAuth.REQUIRE).trustedCertificates(authority.authority);
    try (Listening http = https(required)) {
      Message answer =
          HttpsIsServedAndCalledTest.call(
              "https://127.0.0.1:" + http.listener.port() + "/",
              TlsConfig.builder()
                  .trustedCertificates(authority.authority)
                  .keyStore(client.keyStore())
                  .password(Certificates.PASSWORD)
                  .build());
      assertThat(answer.payload()).isEqualTo("client CN=client");
    }
  }

  @Test
  void anOptionalClientCertificateMayBeLeftOut() throws Exception {
    TlsConfig.Builder optional =
        tls().clientAuth(TlsConfig.ClientAuth.OPTIONAL).trustedCertificates(authority.authority);
    try (Listening http = https(optional);
        SSLSocket socket =
            TlsClient.connect(
                TlsClient.trusting(authority.authority, null), http.listener.port())) {
      assertThat(get(socket)).startsWith("HTTP/1.1 200").endsWith("client null");
    }
  }
}
