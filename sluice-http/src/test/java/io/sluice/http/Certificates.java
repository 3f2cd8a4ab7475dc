package io.sluice.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made for a test, with the JDK's {@code keytool} run as a process: it
 * issues certificates for host names and addresses, written as PEM (chain and PKCS#8 key) and as
 * PKCS#12, the files a listener or requester is configured with.
 */
final class Certificates {

  static final String PASSWORD = "changeit-" + ProcessHandle.current().pid();

  private final Path directory;
  private final Path authorityStore;
  final Path authority;

  /** The certificate and key files of one holder. */
  record Issued(Path certificate, Path key, Path keyStore, String subject) {

    /** Moves this holder's files over {@code other}'s, as a renewal does: new files, same names. */
    void replace(Issued other) throws IOException {
      Files.copy(certificate, other.certificate.resolveSibling("renewing.pem"));
      Files.copy(key, other.key.resolveSibling("renewing.key"));
      Files.move(
          other.key.resolveSibling("renewing.key"), other.key, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          other.certificate.resolveSibling("renewing.pem"),
          other.certificate,
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private Certificates(Path directory) throws Exception {
    this.directory = directory;
    this.authorityStore = directory.resolve("authority.p12");
    genkeypair(authorityStore, "authority", "CN=Sluice Test Authority", "-ext", "bc:c");
    KeyStore store = load(authorityStore);
    this.authority = directory.resolve("authority.pem");
    Files.writeString(authority, pem((X509Certificate) store.getCertificate("authority")));
  }

  /** A new authority whose files live in {@code directory}. */
  static Certificates authority(Path directory) throws Exception {
    return new Certificates(directory);
  }

  /**
   * A certificate for {@code names} ({@code dns:localhost}, {@code ip:127.0.0.1}), usable by a
   * server and a client, issued to {@code CN=name}.
   */
  Issued issue(String name, String... names) throws Exception {
    Path store = directory.resolve(name + ".p12");
    Path request = directory.resolve(name + ".csr");
    Path signed = directory.resolve(name + ".signed.pem");
    genkeypair(store, name, "CN=" + name);
    keytool(
        "-certreq",
        "-alias",
        name,
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        request.toString());
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-alias",
                "authority",
                "-keystore",
                authorityStore.toString(),
                "-storepass",
                PASSWORD,
                "-infile",
                request.toString(),
                "-outfile",
                signed.toString(),
                "-rfc",
                "-validity",
                "30",
                "-ext",
                "eku=serverAuth,clientAuth"));
    if (names.length > 0) {
      gencert.addAll(List.of("-ext", "san=" + String.join(",", names)));
    }
    keytool(gencert.toArray(String[]::new));

    KeyStore own = load(store);
    PrivateKey key = (PrivateKey) own.getKey(name, PASSWORD.toCharArray());
    X509Certificate leaf;
    try (InputStream in = Files.newInputStream(signed)) {
      leaf = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
    X509Certificate root = (X509Certificate) load(authorityStore).getCertificate("authority");
    Path chain = directory.resolve(name + ".pem");
    Files.writeString(chain, pem(leaf) + pem(root));
    Path keyFile = directory.resolve(name + ".key");
    Files.writeString(
        keyFile,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
    KeyStore bundle = KeyStore.getInstance("PKCS12");
    bundle.load(null, null);
    bundle.setKeyEntry(name, key, PASSWORD.toCharArray(), new Certificate[] {leaf, root});
    Path p12 = directory.resolve(name + ".bundle.p12");
    try (OutputStream out = Files.newOutputStream(p12)) {
      bundle.store(out, PASSWORD.toCharArray());
    }
    return new Issued(chain, keyFile, p12, "CN=" + name);
  }

  /** A key pair with a self-signed certificate in a new PKCS#12 {@code store}. */
  private static void genkeypair(Path store, String alias, String subject, String... more)
      throws Exception {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                subject,
                "-validity",
                "30",
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD));
    arguments.addAll(List.of(more));
    keytool(arguments.toArray(String[]::new));
  }

  private static KeyStore load(Path file) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD.toCharArray());
    }
    return store;
  }

  static String pem(X509Certificate certificate) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  private static void keytool(String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("keytool " + String.join(" ", arguments) + ": " + output);
    }
  }
}
