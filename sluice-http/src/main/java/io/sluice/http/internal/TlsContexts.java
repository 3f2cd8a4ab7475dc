package io.sluice.http.internal;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.sluice.core.ConfigProblems;
import io.sluice.core.SluiceException;
import io.sluice.http.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Netty TLS contexts from a {@link TlsConfig}, on the JDK's TLS provider (netty-tcnative would add
 * a native library per platform for a handshake cost that the JDK's TLS 1.3 already keeps small;
 * see docs/benchmarks.md). Loading reads the files itself, so that a bad one is reported by name
 * and reason rather than as a provider's exception.
 */
public final class TlsContexts {

  private TlsContexts() {}

  /** A private key and its certificate chain, the holder's first. */
  record Identity(PrivateKey key, X509Certificate[] chain) {}

  /**
   * Opens the files a TLS configuration names, recording in {@code problems} (under the key's own
   * name) each that cannot be read as what it should be, and a key that is not the certificate's.
   */
  public static void check(
      Path certificate,
      Path key,
      Path keyStore,
      String password,
      Path trusted,
      ConfigProblems problems) {
    try {
      if (keyStore != null || certificate != null) {
        identity(certificate, key, keyStore, password);
      }
    } catch (BadFile e) {
      problems.check(false, e.key, e.file, e.getMessage());
    }
    try {
      if (trusted != null) {
        certificates(trusted, "trustedCertificates");
      }
    } catch (BadFile e) {
      problems.check(false, e.key, e.file, e.getMessage());
    }
  }

  /** A server context: the listener's certificate, and its clients' authorities when it asks. */
  static SslContext server(TlsConfig tls) {
    return build(
        tls,
        () -> {
          Identity identity = identity(tls);
          return SslContextBuilder.forServer(identity.key(), identity.chain())
              .protocols(tls.protocols())
              .clientAuth(ClientAuth.valueOf(tls.clientAuth().name()));
        });
  }

  /**
   * A client context: hostname verification on, the configured authorities (the JDK's when none),
   * the requester's own certificate when it has one.
   */
  public static SslContext client(TlsConfig tls) {
    return build(
        tls,
        () -> {
          SslContextBuilder builder =
              SslContextBuilder.forClient()
                  .endpointIdentificationAlgorithm("HTTPS")
                  .protocols(tls == null ? TlsConfig.PROTOCOLS : tls.protocols());
          if (tls != null && tls.hasIdentity()) {
            Identity identity = identity(tls);
            builder.keyManager(identity.key(), identity.chain());
          }
          return builder;
        });
  }

  /** Builds on the JDK provider with the configured authorities; a bad file fails naming it. */
  private static SslContext build(TlsConfig tls, Supplier<SslContextBuilder> start) {
    try {
      SslContextBuilder builder = start.get().sslProvider(SslProvider.JDK);
      if (tls != null && tls.trustedCertificates() != null) {
        builder.trustManager(certificates(tls.trustedCertificates(), "trustedCertificates"));
      }
      return builder.build();
    } catch (BadFile e) {
      throw new SluiceException(
          "TLS " + e.key + (e.file == null ? "" : " " + e.file) + " " + e.getMessage(), e);
    } catch (IOException e) {
      throw new SluiceException("TLS could not be set up with " + tls + ": " + e, e);
    }
  }

  /** The certificate of a configuration with one; a file that cannot be read fails naming it. */
  static Identity identity(TlsConfig tls) {
    return identity(tls.certificate(), tls.key(), tls.keyStore(), tls.password());
  }

  private static Identity identity(Path certificate, Path key, Path keyStore, String password) {
    if (keyStore != null) {
      return keyStore(keyStore, password);
    }
    X509Certificate[] chain = certificates(certificate, "certificate");
    PrivateKey privateKey = privateKey(key, password);
    if (!matches(privateKey, chain[0])) {
      throw new BadFile("key", key, "is not the private key of certificate " + certificate);
    }
    return new Identity(privateKey, chain);
  }

  /** The subject and end of validity of a chain's first certificate, for the log. */
  static String describe(Identity identity) {
    X509Certificate first = identity.chain()[0];
    return first.getSubjectX500Principal().getName()
        + ", valid until "
        + first.getNotAfter().toInstant();
  }

  private static Identity keyStore(Path file, String password) {
    char[] secret = password == null ? new char[0] : password.toCharArray();
    KeyStore store;
    try (InputStream in = Files.newInputStream(file)) {
      store = KeyStore.getInstance("PKCS12");
      store.load(in, secret);
    } catch (IOException | GeneralSecurityException e) {
      boolean wrongPassword =
          e.getCause() instanceof java.security.UnrecoverableKeyException
              || String.valueOf(e.getMessage()).contains("password");
      throw wrongPassword
          ? new BadFile("password", null, "does not open keyStore " + file + ": " + e.getMessage())
          : new BadFile("keyStore", file, "is not a PKCS#12 file: " + e.getMessage());
    }
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias)) {
          Certificate[] chain = store.getCertificateChain(alias);
          PrivateKey key = (PrivateKey) store.getKey(alias, secret);
          List<X509Certificate> x509 = new ArrayList<>();
          for (Certificate c : chain) {
            x509.add((X509Certificate) c);
          }
          return new Identity(key, x509.toArray(X509Certificate[]::new));
        }
      }
    } catch (GeneralSecurityException | ClassCastException e) {
      throw new BadFile("keyStore", file, "has a key that cannot be read: " + e.getMessage());
    }
    throw new BadFile("keyStore", file, "holds no private key with its certificate");
  }

  private static X509Certificate[] certificates(Path file, String key) {
    List<X509Certificate> certificates = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        certificates.add((X509Certificate) c);
      }
    } catch (IOException | GeneralSecurityException e) {
      throw new BadFile(key, file, "is not a PEM certificate file: " + e.getMessage());
    }
    if (certificates.isEmpty()) {
      throw new BadFile(key, file, "holds no PEM certificate");
    }
    return certificates.toArray(X509Certificate[]::new);
  }

  private static PrivateKey privateKey(Path file, String password) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new BadFile("key", file, "cannot be read: " + e.getMessage());
    }
    boolean encrypted = text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----");
    if (!encrypted && !text.contains("-----BEGIN PRIVATE KEY-----")) {
      throw new BadFile(
          "key",
          file,
          text.contains("-----BEGIN RSA PRIVATE KEY-----")
                  || text.contains("-----BEGIN EC PRIVATE KEY-----")
              ? "is a PKCS#1/SEC1 key; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)"
              : "is not a PEM private key (-----BEGIN PRIVATE KEY-----)");
    }
    String kind = encrypted ? "ENCRYPTED PRIVATE KEY" : "PRIVATE KEY";
    byte[] der;
    try {
      der = pem(text, kind);
    } catch (IllegalArgumentException e) {
      throw new BadFile("key", file, "is not valid PEM: " + e.getMessage());
    }
    PKCS8EncodedKeySpec spec;
    if (encrypted) {
      if (password == null) {
        throw new BadFile("password", null, "is required: key " + file + " is encrypted");
      }
      try {
        EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
        var factory = SecretKeyFactory.getInstance(info.getAlgName());
        spec = info.getKeySpec(factory.generateSecret(new PBEKeySpec(password.toCharArray())));
      } catch (IOException | GeneralSecurityException e) {
        throw new BadFile("password", null, "does not decrypt key " + file + ": " + e.getMessage());
      }
    } else {
      spec = new PKCS8EncodedKeySpec(der);
    }
    for (String algorithm : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS", "DSA")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException notThisOne) {
        // the next algorithm
      }
    }
    throw new BadFile("key", file, "is not an RSA, EC or Ed25519 private key");
  }

  private static byte[] pem(String text, String kind) {
    int begin = text.indexOf("-----BEGIN " + kind + "-----");
    int end = text.indexOf("-----END " + kind + "-----");
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("no complete " + kind + " block");
    }
    String body = text.substring(begin + kind.length() + 16, end);
    return Base64.getMimeDecoder().decode(body);
  }

  /** Whether {@code key} signs what {@code certificate}'s public key verifies. */
  private static boolean matches(PrivateKey key, X509Certificate certificate) {
    String algorithm =
        switch (key.getAlgorithm().toUpperCase(Locale.ROOT)) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "ED25519", "EDDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null) {
      return true; // not checked here; the handshake will tell
    }
    try {
      byte[] probe = "sluice".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** A file of a TLS configuration that is not what its key says it is. */
  static final class BadFile extends IllegalArgumentException {
    private final String key;
    private final Path file;

    BadFile(String key, Path file, String rule) {
      super(rule);
      this.key = key;
      this.file = file;
    }

    /** The configuration key the file was given under. */
    String key() {
      return key;
    }
  }
}
