package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A request target that is not valid percent-encoding is answered 400 with the reason, a version
 * other than HTTP/1.x 505, on a raw socket; neither is counted as a client gone, and the server
 * serves the next client. An absolute-form target routes as its path.
 */
class RequestTargetsAndVersionsAreCheckedTest {

  private static final Processor PATH =
      Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("at " + m.attribute("path")));

  private static Listening start() {
    return Listening.start(
        Listening.server().build(),
        "/hello/*",
        ProcessingStrategy.defaultStrategy(),
        f -> f.processor(PATH));
  }

  @ParameterizedTest
  @CsvSource({
    "/hello/%zz, malformed, 'the path is not valid percent-encoding'",
    "/hello?x=%, malformed, 'the query is not valid percent-encoding'",
    "/hello?x=%4, malformed, 'the query is not valid percent-encoding'",
  })
  void aBadPercentEscapeIs400WithTheReason(String target, String reason, String said)
      throws Exception {
    answered("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n", 400, reason, said);
  }

  @ParameterizedTest
  @CsvSource({"HTTP/9.9", "HTTP/2.0", "HTTP/0.9"})
  void aVersionOtherThanHttp1Is505(String version) throws Exception {
    answered(
        "GET /hello/x " + version + "\r\nHost: x\r\n\r\n",
        505,
        "version-not-supported",
        "only HTTP/1.0 and HTTP/1.1 are served, not " + version);
  }

  private static void answered(String request, int status, String reason, String said)
      throws Exception {
    try (Listening http = start();
        RawClient raw = http.raw()) {
      String answer = raw.send(request).readUntilClosed();
      assertThat(RawClient.status(answer)).isEqualTo(status);
      assertThat(answer).contains(said).doesNotContain("Exception");
      assertThat(http.refused(reason)).isEqualTo(1);
      assertThat(http.refused("client-gone")).isZero();
      assertThat(http.get("/hello/ada").body()).isEqualTo("at /hello/ada");
    }
  }

  @Test
  void anAbsoluteFormTargetRoutesAsItsPath() throws Exception {
    try (Listening http = start();
        RawClient raw = http.raw()) {
      String target = "http://127.0.0.1:" + http.listener.port() + "/hello/ada?x=1";
      String answer = raw.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").readResponse();
      assertThat(RawClient.status(answer)).isEqualTo(200);
      assertThat(answer).endsWith("at /hello/ada");
      assertThat(http.refused("client-gone")).isZero();
    }
  }
}
