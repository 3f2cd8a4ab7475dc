package io.sluice.cli;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The token a command sends to the management port of the {@code sluice run} that holds its
 * embedded store, when it asks that process instead of opening the store: read from a file or the
 * environment, never from the command line, where {@code ps} would show it.
 */
final class ManagementTokenOption {

  @Option(
      names = "--management-token-file",
      paramLabel = "FILE",
      description =
          "When sluice run holds the embedded store, this command asks its management port; send"
              + " the token read from FILE (or set SLUICE_MANAGEMENT_TOKEN).")
  Path tokenFile;

  /** The token, or null when none is given. */
  String token(Map<String, String> env) {
    if (tokenFile != null) {
      try {
        return Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      } catch (IOException | RuntimeException e) {
        throw new ConfigurationException(
            ConfigProblem.of(
                "--management-token-file",
                tokenFile,
                "must name a readable file holding the token: " + e));
      }
    }
    String token = env.get(ManagementAccess.TOKEN_VARIABLE);
    return token == null ? null : token.strip();
  }
}
