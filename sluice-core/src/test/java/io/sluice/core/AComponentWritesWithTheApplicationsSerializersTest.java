package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A user component gets the application's stored values from its flow context: its named
 * serializers and codecs, not a default of its own, so what it keeps is written as the stores
 * write.
 */
class AComponentWritesWithTheApplicationsSerializersTest {

  /** Writes the payload with the named serializer "compact" and reads it back. */
  private static final class KeepsItsOwn implements Processor {
    private volatile StoredValues values;

    @Override
    public void start(FlowContext context) {
      values = context.storedValues();
    }

    @Override
    public Message process(Message message) {
      byte[] record = values.named("compact").write(message.payload());
      return message
          .withVariable("codec", values.peek(record).codecId())
          .withPayload(values.read(record));
    }

    @Override
    public ProcessingType processingType() {
      return ProcessingType.CPU_LITE;
    }
  }

  @Test
  void theContextGivesTheApplicationsNamedSerializers() throws Exception {
    KeepsItsOwn component = new KeepsItsOwn();
    try (Application app =
        Application.builder()
            .serialization(
                SerializationConfig.builder().serializer("compact", "jdk", "gzip", null).build())
            .flow(Flow.builder("keep").processor(component).build())
            .build()) {
      app.start();

      Message done = app.send("keep", Message.of("order 7")).get(10, TimeUnit.SECONDS);

      assertThat(component.values).isSameAs(app.storedValues());
      assertThat(done.payload()).isEqualTo("order 7");
      assertThat(done.variable("codec")).as("gzip's id").isEqualTo(2);
    }
  }
}
