package io.sluice.http;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ProcessorContractTest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The processor contract, run against a requester calling a real listener on 127.0.0.1 that echoes
 * the body and the path: sixteen threads at once share its connection pool.
 */
class HttpRequestProcessorContractTest extends ProcessorContractTest {

  private static Listening server;

  @BeforeAll
  static void startTheServer() {
    server =
        Listening.start(
            "/echo/{n}",
            Processor.of(
                ProcessingType.CPU_LITE,
                m ->
                    m.withPayload(
                        m.payload() + "@" + ((Map<?, ?>) m.attribute("pathParams")).get("n"))));
  }

  @AfterAll
  static void stopTheServer() {
    server.close();
  }

  @Override
  protected Processor newProcessor(Path workDir) {
    return new HttpRequestProcessor(
        HttpRequestConfig.builder(
                "POST",
                Template.parse(
                    "url", "http://127.0.0.1:" + server.listener.port() + "/echo/#[vars.n]"))
            .maxConnectionsPerHost(4)
            .build());
  }

  @Override
  protected Message message(int i) {
    return Message.of("payload-" + i).withVariable("n", i);
  }
}
