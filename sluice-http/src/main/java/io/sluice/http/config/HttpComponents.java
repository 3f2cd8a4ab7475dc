package io.sluice.http.config;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import java.util.List;

/** HTTP in configuration files: the {@code http-listener} source and {@code http-request}. */
public final class HttpComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(new HttpListenerComponent(), new HttpRequestComponent());
  }
}
