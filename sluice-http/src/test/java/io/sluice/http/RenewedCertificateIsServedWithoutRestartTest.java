package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificate files renewed in place serve the connections that open after the change, without a
 * restart; a connection opened before keeps its certificate and is still served; files that do not
 * load leave the previous certificate serving.
 */
class RenewedCertificateIsServedWithoutRestartTest {

  @TempDir Path directory;

  private static final Processor OK =
      Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("ok"));

  private static String get(RawClient raw) throws Exception {
    return raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").readResponse();
  }

  @Test
  void newConnectionsGetTheRenewedCertificateAndOpenOnesKeepTheirs() throws Exception {
    Certificates authority = Certificates.authority(directory);
    Certificates.Issued first = authority.issue("first", "ip:127.0.0.1");
    Certificates.Issued renewed = authority.issue("renewed", "ip:127.0.0.1");
    TlsConfig tls =
        TlsConfig.builder()
            .certificate(first.certificate(), first.key())
            .reloadInterval(Duration.ZERO)
            .build();
    SSLContext trusting = TlsClient.trusting(authority.authority, null);
    try (Listening http =
        Listening.start(
            Listening.server().tls(tls).build(),
            "/",
            ProcessingStrategy.defaultStrategy(),
            f -> f.processor(OK))) {
      int port = http.listener.port();
      try (SSLSocket before = TlsClient.connect(trusting, port);
          RawClient open = new RawClient(before)) {
        assertThat(TlsClient.served(before)).isEqualTo("CN=first");

        Files.writeString(first.key(), "-----BEGIN PRIVATE KEY-----\nnot a key\n");
        try (SSLSocket broken = TlsClient.connect(trusting, port)) {
          assertThat(TlsClient.served(broken)).isEqualTo("CN=first");
        }
        assertThat(reloads(http, "failed")).isEqualTo(1);

        renewed.replace(first);
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> {
                  try (SSLSocket after = TlsClient.connect(trusting, port)) {
                    return TlsClient.served(after).equals("CN=renewed");
                  }
                });
        assertThat(reloads(http, "reloaded")).isEqualTo(1);
        assertThat(get(open)).startsWith("HTTP/1.1 200").endsWith("ok");
        assertThat(TlsClient.served(before)).isEqualTo("CN=first");
      }
    }
  }

  private static double reloads(Listening http, String result) {
    var counter =
        http.app.meterRegistry().find("sluice.http.tls.reloads").tag("result", result).counter();
    return counter == null ? 0 : counter.count();
  }
}
