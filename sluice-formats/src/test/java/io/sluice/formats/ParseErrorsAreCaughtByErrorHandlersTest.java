package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.SetPayloadProcessor;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParseErrorsAreCaughtByErrorHandlersTest {

  private static Message run(Flow flow, Message message) throws Exception {
    try (Application application = Application.builder().flow(flow).build()) {
      application.start();
      return application.send(flow.name(), message).get(10, TimeUnit.SECONDS);
    }
  }

  private static Flow orders(List<String> types) {
    return Flow.builder("orders")
        .processor(ReadProcessor.of(Format.JSON))
        .processor(TransformProcessor.of("#[payload.order.id]"))
        .onError(
            new OnError.Continue(
                types,
                null,
                List.of(
                    new SetPayloadProcessor(
                        Template.parse(
                            "value",
                            "#[error.errorType] at #[error.cause.line()]:#[error.cause.column()]")))))
        .build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"PARSE", "FORMAT:PARSE", "FormatException"})
  void aHandlerOfParseTakesAMalformedDocumentWithItsLineAndColumn(String type) throws Exception {
    Message answer = run(orders(List.of(type)), Documents.file("malformed.json"));

    assertThat(answer.payload()).isEqualTo("FORMAT:PARSE at 4:20");
  }

  @Test
  void aWellFormedDocumentPassesTheHandlerBy() throws Exception {
    Message answer = run(orders(List.of("PARSE")), Documents.file("order.json"));

    assertThat(answer.payload()).isEqualTo(1042);
  }

  @Test
  void aHandlerOfWriteErrorsDoesNotTakeAParseError() {
    Flow flow =
        Flow.builder("orders")
            .processor(ReadProcessor.of(Format.JSON))
            .onError(new OnError.Continue(List.of("WRITE"), null, List.of()))
            .build();

    try {
      run(flow, Documents.file("malformed.json"));
      throw new AssertionError("the flow should have failed");
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(FormatException.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
