package io.sluice.jobs.config;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import java.util.List;

/** The job executor's component of configuration files: the {@code sluice.jobs} section. */
public final class JobsComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(new JobsSection());
  }
}
