package io.sluice.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.JMX;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A real JMX connection to this JVM's platform MBean server, as JConsole makes one: an RMI
 * connector server on 127.0.0.1 and a client connected to it over TCP, for tests of MXBeans.
 */
public final class RemoteJmx implements AutoCloseable {

  private final JMXConnectorServer server;
  private final JMXConnector client;

  private RemoteJmx(JMXConnectorServer server, JMXConnector client) {
    this.server = server;
    this.client = client;
  }

  /** Starts the connector server and connects to it. */
  public static RemoteJmx connect() throws IOException {
    JMXConnectorServer server =
        JMXConnectorServerFactory.newJMXConnectorServer(
            new JMXServiceURL("service:jmx:rmi://127.0.0.1"),
            null,
            ManagementFactory.getPlatformMBeanServer());
    server.start();
    try {
      return new RemoteJmx(server, JMXConnectorFactory.connect(server.getAddress()));
    } catch (IOException e) {
      server.stop();
      throw e;
    }
  }

  /** A proxy of the MXBean {@code name}, calling it over the connection. */
  public <T> T proxy(ObjectName name, Class<T> type) throws IOException {
    return JMX.newMXBeanProxy(client.getMBeanServerConnection(), name, type);
  }

  @Override
  public void close() throws IOException {
    try {
      client.close();
    } finally {
      server.stop();
    }
  }
}
