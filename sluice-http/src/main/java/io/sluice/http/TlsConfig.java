package io.sluice.http;

import io.sluice.core.ConfigProblems;
import io.sluice.http.internal.TlsContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * TLS for an HTTP listener (its certificate, and the clients' certificates it asks for) or a
 * requester (the servers it trusts, and its own certificate when a server asks for one).
 *
 * <p>The own certificate is either PEM files ({@code certificate}: the chain, the server's first;
 * {@code key}: its PKCS#8 private key, encrypted when {@code password} is set) or a PKCS#12 {@code
 * keyStore} opened with {@code password}. Building checks that the files exist and open and that
 * the key belongs to the certificate, so a configuration that cannot work fails when it is
 * validated, not at the first connection. Only TLSv1.2 and TLSv1.3 are spoken.
 *
 * @param certificate the PEM certificate chain, or null
 * @param key the PEM private key (PKCS#8) of {@code certificate}, or null
 * @param keyStore a PKCS#12 file holding the key and its chain, instead of the PEM files; or null
 * @param password the key store's password, or the PEM key's when it is encrypted; or null. Never
 *     logged
 * @param trustedCertificates PEM certificates of the authorities trusted: a listener's clients'
 *     issuers, a requester's servers' issuers (null: the JDK's trust store)
 * @param clientAuth whether a listener asks its clients for a certificate (a requester: NONE)
 * @param protocols the TLS versions spoken, of TLSv1.2 and TLSv1.3
 * @param reloadInterval how often a listener looks whether its files changed, at a new connection;
 *     changed files serve new connections, those open keep theirs
 */
public record TlsConfig(
    Path certificate,
    Path key,
    Path keyStore,
    String password,
    Path trustedCertificates,
    ClientAuth clientAuth,
    List<String> protocols,
    Duration reloadInterval) {

  /** The TLS versions that may be spoken: older ones have known weaknesses. */
  public static final Set<String> PROTOCOLS = Set.of("TLSv1.2", "TLSv1.3");

  /** Whether a listener asks its clients for a certificate. */
  public enum ClientAuth {
    /** It does not ask. */
    NONE,
    /** It asks; a client without one is served, one with an untrusted one refused. */
    OPTIONAL,
    /** A client without a trusted certificate is refused during the handshake. */
    REQUIRE
  }

  /** Checks every rule and lists every violation at once; opens the files to check them. */
  public TlsConfig {
    protocols = protocols == null ? List.of() : List.copyOf(protocols);
    ConfigProblems problems = new ConfigProblems();
    boolean pem = certificate != null || key != null;
    problems.check(
        !(pem && keyStore != null),
        "keyStore",
        keyStore,
        "is instead of certificate and key: give one or the other");
    problems.check(
        certificate != null || key == null, "certificate", null, "is required with a key");
    problems.check(
        key != null || certificate == null, "key", null, "is required with a certificate");
    readable(problems, "certificate", certificate);
    readable(problems, "key", key);
    readable(problems, "keyStore", keyStore);
    readable(problems, "trustedCertificates", trustedCertificates);
    problems.check(
        keyStore == null || password != null, "password", null, "is required with a keyStore");
    problems.check(clientAuth != null, "clientAuth", null, "is required");
    problems.check(
        clientAuth == null || clientAuth == ClientAuth.NONE || trustedCertificates != null,
        "trustedCertificates",
        null,
        "is required when clientAuth is "
            + clientAuth
            + ": the authorities clients' certificates"
            + " must come from");
    problems.check(
        !protocols.isEmpty() && PROTOCOLS.containsAll(protocols),
        "protocols",
        protocols,
        "must be TLSv1.2, TLSv1.3 or both");
    if (problems.check(
        reloadInterval != null && !reloadInterval.isNegative(),
        "reloadInterval",
        reloadInterval,
        "must be a duration of 0 or more")) {
      problems.atMost("reloadInterval", reloadInterval, ConfigProblems.MAX_DURATION);
    }
    if (problems.isEmpty()) {
      TlsContexts.check(certificate, key, keyStore, password, trustedCertificates, problems);
    }
    problems.throwIfAny();
  }

  private static void readable(ConfigProblems problems, String key, Path file) {
    problems.check(
        file == null || Files.isRegularFile(file) && Files.isReadable(file),
        key,
        file,
        file != null && Files.exists(file) ? "is not a readable file" : "does not exist");
  }

  /** Whether it carries a certificate of its own (a listener must; a requester may). */
  public boolean hasIdentity() {
    return certificate != null || keyStore != null;
  }

  /** The TLS versions spoken unless set: TLSv1.3 and TLSv1.2. */
  public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  /** How often a listener looks whether its files changed unless set: every minute. */
  public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofMinutes(1);

  /** A builder with the defaults: no files, clientAuth NONE, both protocols, reload every 1m. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("TLS ").append(String.join("/", protocols));
    if (keyStore != null) {
      text.append(" keyStore ").append(keyStore);
    } else if (certificate != null) {
      text.append(" certificate ").append(certificate).append(" key ").append(key);
    }
    if (password != null) {
      text.append(" password ***");
    }
    text.append(" trusted ")
        .append(trustedCertificates == null ? "the JDK's authorities" : trustedCertificates);
    if (clientAuth != ClientAuth.NONE) {
      text.append(" clientAuth ").append(clientAuth);
    }
    return text.append(" reload every ").append(reloadInterval).toString();
  }

  /** Builds a {@link TlsConfig}; unset values keep their defaults. */
  public static final class Builder {
    private Path certificate;
    private Path key;
    private Path keyStore;
    private String password;
    private Path trustedCertificates;
    private ClientAuth clientAuth = ClientAuth.NONE;
    private List<String> protocols = DEFAULT_PROTOCOLS;
    private Duration reloadInterval = DEFAULT_RELOAD_INTERVAL;

    private Builder() {}

    /** The PEM certificate chain and its PEM (PKCS#8) private key. */
    public Builder certificate(Path chain, Path privateKey) {
      this.certificate = chain;
      this.key = privateKey;
      return this;
    }

    /** A PKCS#12 file holding the key and its chain. */
    public Builder keyStore(Path value) {
      this.keyStore = value;
      return this;
    }

    /** The key store's password, or an encrypted PEM key's. */
    public Builder password(String value) {
      this.password = value;
      return this;
    }

    /** PEM certificates of the authorities trusted (the JDK's unless set). */
    public Builder trustedCertificates(Path value) {
      this.trustedCertificates = value;
      return this;
    }

    /** Whether a listener asks its clients for a certificate (NONE unless set). */
    public Builder clientAuth(ClientAuth value) {
      this.clientAuth = value;
      return this;
    }

    /** The TLS versions spoken (TLSv1.3 and TLSv1.2 unless set). */
    public Builder protocols(List<String> value) {
      this.protocols = value;
      return this;
    }

    /** How often a listener looks whether its files changed (1 minute unless set). */
    public Builder reloadInterval(Duration value) {
      this.reloadInterval = value;
      return this;
    }

    /** The configuration; fails listing every broken rule. */
    public TlsConfig build() {
      return new TlsConfig(
          certificate,
          key,
          keyStore,
          password,
          trustedCertificates,
          clientAuth,
          protocols,
          reloadInterval);
    }
  }
}
