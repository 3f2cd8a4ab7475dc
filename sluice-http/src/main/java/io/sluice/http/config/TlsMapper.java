package io.sluice.http.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SourceMap;
import io.sluice.http.TlsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code tls:} block of an {@code http-listener} or an {@code http-request}: files relative to
 * the configuration file, the password read from a file or an environment variable (never written
 * in the configuration). The files are opened here, so {@code validate} reports one that cannot
 * work.
 */
final class TlsMapper {

  private final Path baseDirectory;
  private final ProblemCollector problems;

  TlsMapper(Path baseDirectory, ProblemCollector problems) {
    this.baseDirectory = baseDirectory;
    this.problems = problems;
  }

  /** Whether {@code parent} has a {@code tls} block that did not map: the caller maps nothing. */
  boolean broken(ConfigNode parent, TlsConfig mapped) {
    return parent.has("tls") && mapped == null;
  }

  /** The TLS of {@code parent}'s {@code tls} key; null when absent or broken (and recorded). */
  TlsConfig map(ConfigNode parent, boolean listener) {
    if (!parent.has("tls")) {
      return null;
    }
    ConfigNode node = parent.get("tls");
    TlsConfig d = TlsConfig.builder().build();
    TlsConfig.Builder tls =
        TlsConfig.builder()
            .certificate(file(node, "certificate"), file(node, "key"))
            .keyStore(file(node, "keyStore"))
            .trustedCertificates(file(node, "trustedCertificates"));
    List<String> protocols = node.texts("protocols");
    tls.protocols(protocols.isEmpty() ? d.protocols() : protocols);
    if (listener) {
      tls.clientAuth(node.enumValue("clientAuth", TlsConfig.ClientAuth.class, d.clientAuth()))
          .reloadInterval(node.duration("reloadInterval", d.reloadInterval()));
    }
    String passwordKey = node.has("passwordFile") ? "passwordFile" : "passwordEnv";
    if (node.has("passwordFile") && node.has("passwordEnv")) {
      problems.add(node.get("passwordEnv").path(), null, "is instead of passwordFile: give one");
      return null;
    }
    String password = node.has(passwordKey) ? password(node, passwordKey) : null;
    boolean passwordMissing = node.has(passwordKey) && password == null;
    tls.password(password);
    // The record names the password "password": the file says where it came from. A password
    // that could not be read was reported already; the other keys are still checked.
    TlsConfig built =
        problems.attempt(
            node.path(),
            p ->
                !p.equals("password")
                    ? SourceMap.child(node.path(), p)
                    : passwordMissing ? null : SourceMap.child(node.path(), passwordKey),
            tls::build);
    return passwordMissing ? null : built;
  }

  private Path file(ConfigNode node, String key) {
    String text = node.text(key, null);
    return text == null ? null : baseDirectory.resolve(text).normalize();
  }

  /** The password from its file (without a final line break) or variable; null when missing. */
  private String password(ConfigNode node, String key) {
    String where = node.text(key, null);
    if (key.equals("passwordEnv")) {
      String value = System.getenv(where);
      if (value == null) {
        problems.add(node.get(key).path(), where, "is not set in the environment");
      }
      return value;
    }
    Path file = baseDirectory.resolve(where).normalize();
    try {
      return Files.readString(file).stripTrailing();
    } catch (IOException e) {
      problems.add(node.get(key).path(), file.toString(), "cannot be read: " + e);
      return null;
    }
  }
}
