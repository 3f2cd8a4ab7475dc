package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ExhaustedAction;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.file.AfterRead;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.file.FileWriteProcessor;
import io.sluice.core.file.WriteMode;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.AsyncScope;
import io.sluice.core.processor.ExpressionProcessor;
import io.sluice.core.processor.JavaComponentProcessor;
import io.sluice.core.processor.LoggerProcessor;
import io.sluice.core.processor.SetPayloadProcessor;
import io.sluice.core.processor.SetVariableProcessor;
import io.sluice.core.scheduler.SchedulerSource;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPublishProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class FullExampleMapsToFlowsTest {

  private static Application application;

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in =
        FullExampleMapsToFlowsTest.class.getResourceAsStream("/full-example.yaml")) {
      application = Configs.build(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static Flow flow(String name) {
    return application.flows().stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void applicationSettingsAreRead() {
    assertThat(application.flows())
        .extracting(Flow::name)
        .containsExactly("copy-files", "ticker", "audit");
    assertThat(application.shutdownTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(application.vmQueues().queue("any").capacity()).isEqualTo(50);
  }

  @Test
  void eachStrategyCarriesItsValues() {
    assertThat(flow("copy-files").strategy())
        .isEqualTo(
            new ProcessingStrategy.Synchronous(
                new ThreadingProfile(
                    4, 20, ExhaustedAction.REJECT, Duration.ofSeconds(5), Duration.ofMinutes(2))));
    assertThat(flow("ticker").strategy())
        .isEqualTo(
            new ProcessingStrategy.Staged(
                ThreadingProfile.builder().maxThreadsActive(2).build(),
                ThreadingProfile.builder().maxThreadsActive(3).build(),
                ThreadingProfile.builder().maxThreadsActive(1).maxQueue(0).build()));
    assertThat(flow("audit").strategy())
        .isEqualTo(
            new ProcessingStrategy.Auto(100, ExhaustedAction.REJECT, Duration.ofSeconds(1), 4, 64));
  }

  @Test
  void eachSourceIsOfItsKind() {
    assertThat(flow("copy-files").source()).isInstanceOf(FileSource.class);
    assertThat(Fields.ofType(flow("copy-files").source(), FileSourceConfig.class))
        .isEqualTo(
            new FileSourceConfig(
                Path.of("/etc/sluice/in"),
                "*.txt",
                Duration.ofMillis(500),
                Duration.ofSeconds(1),
                AfterRead.MOVE,
                Path.of("/etc/sluice/done"),
                8,
                false));
    assertThat(flow("ticker").source()).isInstanceOf(SchedulerSource.class);
    assertThat(flow("audit").source()).isInstanceOf(VmListenerSource.class);
    assertThat(Fields.ofType(flow("audit").source(), int.class)).isEqualTo(2);
  }

  @Test
  void processorsKeepTheirKindsAndOrder() {
    Flow flow = flow("copy-files");
    assertThat(flow.processors())
        .hasExactlyElementsOfTypes(
            LoggerProcessor.class,
            SetPayloadProcessor.class,
            SetVariableProcessor.class,
            ExpressionProcessor.class,
            JavaComponentProcessor.class,
            AsyncScope.class,
            VmPublishProcessor.class);
    LoggerProcessor logger = (LoggerProcessor) flow.processors().get(0);
    assertThat(Fields.ofType(logger, Level.class)).isEqualTo(Level.DEBUG);
    assertThat(Fields.ofType(logger, Template.class).text())
        .isEqualTo("got #[attributes.fileName]");
    assertThat(Fields.ofType(logger, String.class)).isEqualTo("copy");
    assertThat(flow.processors().get(3).processingType()).isEqualTo(ProcessingType.CPU_INTENSIVE);
    assertThat(flow.processors().get(4).processingType()).isEqualTo(ProcessingType.CPU_LITE);
    assertThat(((AsyncScope) flow.processors().get(5)).processors())
        .hasExactlyElementsOfTypes(LoggerProcessor.class);
    assertThat(flow.processors().get(6).name()).isEqualTo("vm-publish(audit)");
    assertThat(flow("ticker").processors().get(0).name()).isEqualTo("vm-request(audit)");
  }

  @Test
  void sinksAreMappedLikeProcessors() {
    FileWriteProcessor sink = (FileWriteProcessor) flow("copy-files").sinks().get(0);
    assertThat(Fields.ofType(sink, Path.class)).isEqualTo(Path.of("/etc/sluice/out"));
    assertThat(Fields.ofType(sink, Template.class).text()).isEqualTo("#[attributes.fileName].done");
    assertThat(Fields.ofType(sink, WriteMode.class)).isEqualTo(WriteMode.CREATE_NEW);
  }

  @Test
  void errorHandlerBranchesKeepTheirOrderTypesAndConditions() {
    assertThat(flow("copy-files").errorHandler())
        .hasExactlyElementsOfTypes(OnError.Continue.class, OnError.Propagate.class);
    OnError first = flow("copy-files").errorHandler().get(0);
    assertThat(first.types()).containsExactly("IOException");
    assertThat(first.when()).isNotNull();
    assertThat(first.processors()).hasExactlyElementsOfTypes(LoggerProcessor.class);
    OnError second = flow("copy-files").errorHandler().get(1);
    assertThat(second.types()).isEmpty();
    assertThat(second.when()).isNull();
    assertThat(second.processors()).isEmpty();
  }
}
