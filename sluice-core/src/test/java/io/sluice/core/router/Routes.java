package io.sluice.core.router;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/** Processors and flows the router tests share. */
final class Routes {

  private Routes() {}

  static List<ProcessingStrategy> strategies() {
    ThreadingProfile small = ThreadingProfile.builder().maxThreadsActive(4).maxQueue(100).build();
    return List.of(
        new ProcessingStrategy.Synchronous(small),
        new ProcessingStrategy.Staged(small, small, small),
        ProcessingStrategy.defaultStrategy());
  }

  /** A CPU_LITE processor appending {@code suffix} to a text payload. */
  static Processor append(String suffix) {
    return lite(m -> m.withPayload(m.payload() + suffix));
  }

  static Processor lite(UnaryOperator<Message> body) {
    return Processor.of(ProcessingType.CPU_LITE, body::apply);
  }

  static Processor blocking(UnaryOperator<Message> body) {
    return Processor.of(ProcessingType.BLOCKING_IO, body::apply);
  }

  static Processor failing(RuntimeException error) {
    return lite(
        m -> {
          throw error;
        });
  }

  /** An application of one flow {@code f} running these processors under {@code strategy}. */
  static Application app(ProcessingStrategy strategy, Processor... processors) {
    Flow.Builder flow = Flow.builder("f").strategy(strategy);
    for (Processor processor : processors) {
      flow.processor(processor);
    }
    Application app = Application.builder().flow(flow.build()).build();
    app.start();
    return app;
  }

  static Message send(Application app, Object payload) throws Exception {
    return app.send("f", Message.of(payload)).get(20, TimeUnit.SECONDS);
  }
}
