package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.expression.Template;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.AbstractListAssert;
import org.assertj.core.api.ObjectAssert;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS configuration that cannot work fails when it is built (so when a YAML file is validated),
 * each problem naming the key, the value and the rule: files missing or not what they should be, a
 * wrong password, a key of another certificate, an old protocol; and a URL of another scheme.
 */
class TlsConfigIsCheckedWhenBuiltTest {

  @TempDir static Path directory;
  static Certificates.Issued server;
  static Certificates.Issued other;

  @BeforeAll
  static void issue() throws Exception {
    Certificates authority = Certificates.authority(directory);
    server = authority.issue("server", "ip:127.0.0.1");
    other = authority.issue("other", "ip:127.0.0.1");
  }

  private static List<ConfigProblem> problems(Runnable build) {
    try {
      build.run();
    } catch (ConfigurationException e) {
      return e.problems();
    }
    throw new AssertionError("built without a problem");
  }

  private static AbstractListAssert<?, List<? extends Tuple>, Tuple, ObjectAssert<Tuple>>
      assertProblems(Runnable build) {
    return org.assertj.core.api.Assertions.assertThat(problems(build))
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()), ConfigProblem::rule);
  }

  @Test
  void missingFilesAndAnOldProtocolAreNamed() {
    Path missing = directory.resolve("missing.pem");
    assertProblems(
            () ->
                TlsConfig.builder()
                    .certificate(missing, server.key())
                    .trustedCertificates(directory.resolve("nowhere.pem"))
                    .protocols(List.of("TLSv1.1", "TLSv1.2"))
                    .build())
        .containsExactlyInAnyOrder(
            tuple("certificate", missing.toString(), "does not exist"),
            tuple(
                "trustedCertificates",
                directory.resolve("nowhere.pem").toString(),
                "does not exist"),
            tuple("protocols", "[TLSv1.1, TLSv1.2]", "must be TLSv1.2, TLSv1.3 or both"));
  }

  @Test
  void aKeyThatIsNoKeyOrNotTheCertificatesIsRefused() throws Exception {
    Path garbage = Files.writeString(directory.resolve("garbage.key"), "hello");
    assertProblems(() -> TlsConfig.builder().certificate(server.certificate(), garbage).build())
        .containsExactly(
            tuple(
                "key",
                garbage.toString(),
                "is not a PEM private key (-----BEGIN PRIVATE KEY-----)"));
    assertProblems(() -> TlsConfig.builder().certificate(server.certificate(), other.key()).build())
        .containsExactly(
            tuple(
                "key",
                other.key().toString(),
                "is not the private key of certificate " + server.certificate()));
  }

  @Test
  void aWrongKeyStorePasswordIsRefused() {
    List<ConfigProblem> problems =
        problems(() -> TlsConfig.builder().keyStore(server.keyStore()).password("wrong").build());
    org.assertj.core.api.Assertions.assertThat(problems).hasSize(1);
    org.assertj.core.api.Assertions.assertThat(problems.getFirst().path()).isEqualTo("password");
    org.assertj.core.api.Assertions.assertThat(problems.getFirst().rule())
        .startsWith("does not open keyStore " + server.keyStore());
  }

  @Test
  void aListenerNeedsACertificateAndAClientCheckNeedsAuthorities() {
    assertProblems(
            () ->
                TlsConfig.builder()
                    .certificate(server.certificate(), server.key())
                    .clientAuth(TlsConfig.ClientAuth.REQUIRE)
                    .build())
        .extracting(t -> t.toList().getFirst())
        .containsExactly("trustedCertificates");
    TlsConfig noIdentity = TlsConfig.builder().build();
    assertProblems(() -> HttpServerConfig.builder(0).tls(noIdentity).build())
        .extracting(t -> t.toList().getFirst())
        .containsExactly("tls.certificate");
  }

  @Test
  void aRequesterUrlOfAnotherSchemeIsRefusedWhenItsSchemeIsWritten() {
    assertProblems(
            () -> HttpRequestConfig.builder("GET", Template.parse("url", "ftp://host/x")).build())
        .containsExactly(tuple("url", "ftp://host/x", "must be an http:// or https:// URL"));
    assertProblems(
            () ->
                HttpRequestConfig.builder("GET", Template.parse("url", "localhost:8080/x")).build())
        .containsExactly(tuple("url", "localhost:8080/x", "must be an http:// or https:// URL"));
    // Made by an expression: known only when called.
    HttpRequestConfig.builder("GET", Template.parse("url", "#[vars.url]")).build();
    assertThatThrownBy(
            () ->
                HttpRequestConfig.builder("GET", Template.parse("url", "ftp://#[vars.host]/"))
                    .build())
        .isInstanceOf(ConfigurationException.class);
  }
}
