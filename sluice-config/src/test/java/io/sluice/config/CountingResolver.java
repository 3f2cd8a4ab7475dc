package io.sluice.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The JDK's own name resolution, counting the lookups of this host's name: installed for the tests
 * of this module (META-INF/services), so a test can tell whether reading a file asked for it.
 */
public final class CountingResolver extends InetAddressResolverProvider {

  /** Lookups of the local host's name since the JVM started. */
  static final AtomicInteger LOCAL_HOST_LOOKUPS = new AtomicInteger();

  @Override
  public InetAddressResolver get(Configuration configuration) {
    InetAddressResolver builtin = configuration.builtinResolver();
    String localHost = configuration.lookupLocalHostName();
    return new InetAddressResolver() {
      @Override
      public Stream<InetAddress> lookupByName(String host, LookupPolicy policy)
          throws UnknownHostException {
        if (host.equals(localHost)) {
          LOCAL_HOST_LOOKUPS.incrementAndGet();
        }
        return builtin.lookupByName(host, policy);
      }

      @Override
      public String lookupByAddress(byte[] address) throws UnknownHostException {
        return builtin.lookupByAddress(address);
      }
    };
  }

  @Override
  public String name() {
    return "counting";
  }
}
