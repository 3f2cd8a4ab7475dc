package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.file.AfterRead;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.file.WriteMode;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.LoggerProcessor;
import io.sluice.core.spi.ProcessingType;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class DefaultsAreAppliedTest {

  @Test
  void aBareFlowGetsAutoWithItsDefaultsAndNothingElse() {
    Application application = Configs.build("flows: [ { name: bare } ]");
    Flow flow = application.flows().get(0);
    assertThat(flow.strategy()).isEqualTo(ProcessingStrategy.Auto.DEFAULT);
    assertThat(flow.source()).isNull();
    assertThat(flow.processors()).isEmpty();
    assertThat(flow.sinks()).isEmpty();
    assertThat(flow.errorHandler()).isEmpty();
    assertThat(application.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(application.vmQueues().queue("q").capacity()).isEqualTo(1000);
  }

  @Test
  void profilesLeftOutOrPartlyWrittenKeepTheDefaults() {
    Application application =
        Configs.build(
            """
        flows:
          - name: sync
            strategy: { synchronous: {} }
          - name: staged
            strategy: { staged: { flow: { maxThreadsActive: 2 } } }
          - name: auto
            strategy: { auto: { maxInFlight: 5 } }
        """);
    assertThat(application.flows().get(0).strategy())
        .isEqualTo(new ProcessingStrategy.Synchronous(ThreadingProfile.DEFAULT));
    assertThat(application.flows().get(1).strategy())
        .isEqualTo(
            new ProcessingStrategy.Staged(
                ThreadingProfile.DEFAULT,
                ThreadingProfile.builder().maxThreadsActive(2).build(),
                ThreadingProfile.DEFAULT));
    ProcessingStrategy.Auto d = ProcessingStrategy.Auto.DEFAULT;
    assertThat(application.flows().get(2).strategy())
        .isEqualTo(
            new ProcessingStrategy.Auto(
                5, d.backpressure(), d.waitTimeout(), d.initialLimit(), d.maxLimit()));
  }

  @Test
  void aLoggerWithoutSettingsLogsThePayloadAtInfo() {
    Flow flow =
        Configs.build(
                """
        flows:
          - name: log
            processors:
              - logger:
              - logger: {}
        """)
            .flows()
            .get(0);
    for (var processor : flow.processors()) {
      LoggerProcessor logger = (LoggerProcessor) processor;
      assertThat(Fields.ofType(logger, Template.class).text()).isEqualTo("#[payload]");
      assertThat(Fields.ofType(logger, Level.class)).isEqualTo(Level.INFO);
      assertThat(Fields.ofType(logger, String.class)).isNull();
    }
  }

  @Test
  void connectorsDefaultWhatTheyDoNotSay() {
    Flow flow =
        Configs.build(
                """
        flows:
          - name: files
            source: { file: { directory: in } }
            processors:
              - vm-publish: { queue: q }
              - expression: { expression: "1 + 1" }
            sinks:
              - file-write: { directory: out }
        """)
            .flows()
            .get(0);
    assertThat(Fields.ofType(flow.source(), FileSourceConfig.class))
        .isEqualTo(FileSourceConfig.builder(Path.of("/etc/sluice/in")).build())
        .satisfies(c -> assertThat(c.afterRead()).isEqualTo(AfterRead.DELETE));
    assertThat(Fields.ofType(flow.processors().get(0), Duration.class))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(flow.processors().get(1).processingType()).isEqualTo(ProcessingType.CPU_LITE);
    assertThat(Fields.ofType(flow.sinks().get(0), Template.class).text())
        .isEqualTo("#[attributes.fileName]");
    assertThat(Fields.ofType(flow.sinks().get(0), WriteMode.class)).isEqualTo(WriteMode.OVERWRITE);
  }

  @Test
  void anEmptyErrorBranchTakesEveryErrorAndDoesNothing() {
    Flow flow =
        Configs.build(
                """
        flows:
          - name: forgiving
            errorHandler:
              - onErrorContinue:
        """)
            .flows()
            .get(0);
    assertThat(flow.errorHandler())
        .singleElement()
        .isInstanceOfSatisfying(
            OnError.Continue.class,
            branch -> {
              assertThat(branch.types()).isEmpty();
              assertThat(branch.when()).isNull();
              assertThat(branch.processors()).isEmpty();
            });
  }
}
