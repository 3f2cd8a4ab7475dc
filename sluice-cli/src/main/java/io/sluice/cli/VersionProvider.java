package io.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads Sluice's version from the properties file the build writes. */
final class VersionProvider implements CommandLine.IVersionProvider {

  @Override
  public String[] getVersion() throws IOException {
    return new String[] {
      "sluice " + version(),
      "JVM: ${java.version} (${java.vendor} ${java.vm.name} ${java.vm.version})",
      "OS: ${os.name} ${os.version} ${os.arch}"
    };
  }

  static String version() throws IOException {
    Properties properties = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      properties.load(in);
    }
    return properties.getProperty("version", "unknown");
  }
}
