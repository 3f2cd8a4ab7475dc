package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener serves HTTPS from PEM files or a PKCS#12 key store, and the requester calls it,
 * trusting the authority it is configured with and checking the host name; every failure of trust
 * or protocol is a clear error, on certificates made for the test.
 */
class HttpsIsServedAndCalledTest {

  @TempDir static Path directory;
  static Certificates authority;
  static Certificates.Issued server;
  static Certificates.Issued elsewhere;

  private static final Processor HELLO =
      Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("hello at " + m.attribute("path")));

  @BeforeAll
  static void issue() throws Exception {
    authority = Certificates.authority(directory);
    server = authority.issue("server", "dns:localhost", "ip:127.0.0.1");
    elsewhere = authority.issue("elsewhere", "dns:elsewhere.example");
  }

  static TlsConfig.Builder pem(Certificates.Issued holder) {
    return TlsConfig.builder().certificate(holder.certificate(), holder.key());
  }

  static Listening https(TlsConfig tls) {
    return Listening.start(
        Listening.server().tls(tls).build(),
        "/*",
        ProcessingStrategy.defaultStrategy(),
        f -> f.processor(HELLO));
  }

  private static HttpResponse<String> get(Listening http, String path) throws Exception {
    try (HttpClient client =
        HttpClient.newBuilder().sslContext(TlsClient.trusting(authority.authority, null)).build()) {
      URI uri = URI.create("https://127.0.0.1:" + http.listener.port() + path);
      return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  /** Calls {@code url} from a flow whose one processor is a requester with {@code tls}. */
  static Message call(String url, TlsConfig tls) throws Exception {
    HttpRequestProcessor requester =
        new HttpRequestProcessor(
            HttpRequestConfig.builder("GET", Template.parse("url", url)).tls(tls).build());
    try (Application app =
        Application.builder().flow(Flow.builder("caller").processor(requester).build()).build()) {
      app.start();
      return app.send("caller", Message.of(null)).get(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aListenerServesHttpsFromPemFiles() throws Exception {
    try (Listening http = https(pem(server).build())) {
      HttpResponse<String> response = get(http, "/pem");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("hello at /pem");
    }
  }

  @Test
  void aListenerServesHttpsFromAPkcs12KeyStore() throws Exception {
    TlsConfig tls =
        TlsConfig.builder().keyStore(server.keyStore()).password(Certificates.PASSWORD).build();
    try (Listening http = https(tls)) {
      assertThat(get(http, "/p12").body()).isEqualTo("hello at /p12");
    }
  }

  @Test
  void theRequesterCallsHttpsTrustingTheConfiguredAuthority() throws Exception {
    try (Listening http = https(pem(server).build())) {
      Message answer =
          call(
              "https://127.0.0.1:" + http.listener.port() + "/called",
              TlsConfig.builder().trustedCertificates(authority.authority).build());
      assertThat(answer.payload()).isEqualTo("hello at /called");
      assertThat(answer.attribute("statusCode")).isEqualTo(200);
    }
  }

  @Test
  void theRequesterRefusesACertificateIssuedForAnotherHost() throws Exception {
    try (Listening http = https(pem(elsewhere).build())) {
      String url = "https://127.0.0.1:" + http.listener.port() + "/";
      assertThatThrownBy(
              () -> call(url, TlsConfig.builder().trustedCertificates(authority.authority).build()))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(SSLHandshakeException.class)
          .hasMessageContaining("GET " + url + ": the TLS handshake failed")
          .hasMessageContaining("127.0.0.1");
      await().until(() -> http.refused("tls-handshake") == 1);
    }
  }

  @Test
  void withoutAnAuthorityTheRequesterTrustsOnlyTheJdksOwn() throws Exception {
    try (Listening http = https(pem(server).build())) {
      assertThatThrownBy(() -> call("https://127.0.0.1:" + http.listener.port() + "/", null))
          .cause()
          .isInstanceOf(SSLHandshakeException.class)
          .hasMessageContaining("the TLS handshake failed")
          .hasMessageContaining("certification path");
    }
  }

  @Test
  void anHttpsCallToAPlainListenerFailsWithAClearError() throws Exception {
    try (Listening http = Listening.start("/*", HELLO)) {
      assertThatThrownBy(
              () ->
                  call(
                      "https://127.0.0.1:" + http.listener.port() + "/",
                      TlsConfig.builder().trustedCertificates(authority.authority).build()))
          .cause()
          .isInstanceOf(SSLHandshakeException.class)
          .hasMessageContaining("the TLS handshake failed")
          .hasMessageContaining("Check that the server speaks HTTPS on this port");
    }
  }

  @Test
  void plainHttpToAnHttpsListenerIsRefusedAndCounted() throws Exception {
    try (Listening http = https(pem(server).build());
        RawClient raw = http.raw()) {
      String answer = raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").readUntilClosed();
      assertThat(answer).doesNotContain("hello");
      await().until(() -> http.refused("tls-handshake") == 1);
      assertThat(get(http, "/after").body()).isEqualTo("hello at /after");
    }
  }
}
