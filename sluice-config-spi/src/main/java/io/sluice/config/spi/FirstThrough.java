package io.sluice.config.spi;

import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import java.util.ArrayList;
import java.util.List;

/** A source whose messages go through one processor more first (a source's {@code read:}). */
final class FirstThrough implements Source, HealthContributor {

  private final Source source;
  private final Processor first;

  FirstThrough(Source source, Processor first) {
    this.source = source;
    this.first = first;
  }

  @Override
  public void start(SourceContext context) throws Exception {
    source.start(context);
  }

  @Override
  public void stop() {
    source.stop();
  }

  @Override
  public List<HealthCheck> health() {
    return source instanceof HealthContributor health ? health.health() : List.of();
  }

  @Override
  public String component() {
    return source instanceof HealthContributor health ? health.component() : source.name();
  }

  @Override
  public boolean fedByOtherFlows() {
    return source.fedByOtherFlows();
  }

  @Override
  public boolean handsStreams() {
    return source.handsStreams();
  }

  @Override
  public List<Processor> firstProcessors() {
    List<Processor> all = new ArrayList<>(source.firstProcessors());
    all.add(first);
    return all;
  }

  @Override
  public String name() {
    return source.name();
  }

  @Override
  public String toString() {
    return source.toString();
  }
}
