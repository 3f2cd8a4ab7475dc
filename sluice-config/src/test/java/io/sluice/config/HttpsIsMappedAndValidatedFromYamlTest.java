package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpRequestProcessor;
import io.sluice.http.TlsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tls:} blocks of a listener and a requester are read from YAML, the password from a
 * file; a TLS or https:// configuration that cannot work is refused when the file is validated,
 * each problem at its key with the value and the rule.
 */
class HttpsIsMappedAndValidatedFromYamlTest {

  @TempDir static Path directory;
  static Path keyStore;
  static Path rightPassword;
  static Path wrongPassword;

  @BeforeAll
  static void keyStore() throws Exception {
    keyStore = directory.resolve("server.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-validity",
                "2",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                "right-one",
                "-keypass",
                "right-one")
            .redirectErrorStream(true)
            .start();
    keytool.getOutputStream().close();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue()).as(output).isZero();
    rightPassword = Files.writeString(directory.resolve("right.txt"), "right-one\n");
    wrongPassword = Files.writeString(directory.resolve("wrong.txt"), "wrong-one\n");
  }

  @Test
  void everyTlsKeyOfAListenerIsRead() {
    HttpListenerSource listener =
        (HttpListenerSource)
            Configs.build(
                    """
                    flows:
                      - name: api
                        source:
                          http-listener:
                            port: 8443
                            tls:
                              keyStore: %s
                              passwordFile: %s
                              protocols: [TLSv1.3]
                              reloadInterval: 5s
                    """
                        .formatted(keyStore, rightPassword))
                .flows()
                .getFirst()
                .source();
    assertThat(listener.server().tls())
        .isEqualTo(
            TlsConfig.builder()
                .keyStore(keyStore)
                .password("right-one")
                .protocols(List.of("TLSv1.3"))
                .reloadInterval(Duration.ofSeconds(5))
                .build());
    assertThat(listener.server().tls().toString()).doesNotContain("right-one").contains("***");
  }

  @Test
  void aRequesterTrustsTheJdkUnlessToldAndTakesHttpsUrls() {
    var flow =
        Configs.build(
                """
                flows:
                  - name: caller
                    processors:
                      - http-request: { url: "https://example.org/x" }
                """)
            .flows()
            .getFirst();
    assertThat(((HttpRequestProcessor) flow.processors().getFirst()).config().tls()).isNull();
  }

  @Test
  void tlsThatCannotWorkIsRefusedWithPathValueAndRule() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            flows:
              - name: api
                source:
                  http-listener:
                    port: 8443
                    tls: { keyStore: %s, passwordFile: %s }
              - name: api2
                source:
                  http-listener:
                    port: 8444
                    tls: { certificate: %s, key: %s, protocols: [TLSv1.1] }
              - name: caller
                processors:
                  - http-request:
                      url: "ftp://example.org/x"
                  - http-request:
                      url: "https://example.org/x"
                      tls: { trustedCertificates: %s, keyStore: %s, passwordEnv: SLUICE_TEST_UNSET_VARIABLE }
            """
                .formatted(
                    keyStore,
                    wrongPassword,
                    directory.resolve("missing.pem"),
                    directory.resolve("missing.key"),
                    directory.resolve("nowhere.pem"),
                    keyStore));
    assertThat(problems)
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()))
        .containsExactlyInAnyOrder(
            tuple("flows[0].source.http-listener.tls.passwordFile", "null"),
            tuple("flows[1].source.http-listener.tls.protocols[0]", "TLSv1.1"),
            tuple(
                "flows[1].source.http-listener.tls.certificate",
                directory.resolve("missing.pem").toString()),
            tuple(
                "flows[1].source.http-listener.tls.key",
                directory.resolve("missing.key").toString()),
            tuple("flows[2].processors[0].http-request.url", "ftp://example.org/x"),
            tuple(
                "flows[2].processors[1].http-request.tls.trustedCertificates",
                directory.resolve("nowhere.pem").toString()),
            tuple(
                "flows[2].processors[1].http-request.tls.passwordEnv",
                "SLUICE_TEST_UNSET_VARIABLE"));
    assertThat(problems)
        .filteredOn(p -> p.path().endsWith("passwordFile"))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).startsWith("does not open keyStore " + keyStore));
    assertThat(problems)
        .filteredOn(p -> p.path().endsWith("passwordEnv"))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).isEqualTo("is not set in the environment"));
  }
}
