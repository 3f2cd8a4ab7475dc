package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streaming listener hands its flow the request as soon as the headers are in; the body is an
 * InputStream the flow reads while it arrives, in bounded memory and of any size.
 */
class StreamingListenerHandsBodiesOverWhileTheyArriveTest {

  private static final int BODY = 20 * 1024 * 1024;

  /** The flow's first processor, the one that reads the body, sees the stream. */
  private final CompletableFuture<InputStream> seen = new CompletableFuture<>();

  private Listening start(HttpServerConfig config, Processor reader) {
    HttpListenerSource listener = new HttpListenerSource(config, "/upload", Set.of(), true);
    Flow flow =
        Flow.builder("web")
            .strategy(ProcessingStrategy.defaultStrategy())
            .source(listener)
            .processor(reader)
            .build();
    Application app =
        Application.builder().flow(flow).shutdownTimeout(Duration.ofSeconds(10)).build();
    app.start();
    return Listening.of(app, listener);
  }

  /** Reads the whole body and answers its length and CRC32. */
  private Processor lengthAndCrc() {
    return m -> {
      InputStream body = (InputStream) m.payload();
      seen.complete(body);
      CRC32 crc = new CRC32();
      long length = 0;
      byte[] buffer = new byte[8192];
      for (int n; (n = body.read(buffer)) >= 0; ) {
        crc.update(buffer, 0, n);
        length += n;
      }
      return m.withPayload(length + " " + Long.toHexString(crc.getValue()));
    };
  }

  private static byte[] body(int size) {
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) (i * 31 + (i >>> 11));
    }
    return bytes;
  }

  @Test
  void aBodyFarLargerThanMaxBodySizeFlowsThroughWhole() throws Exception {
    byte[] sent = body(BODY);
    CRC32 expected = new CRC32();
    expected.update(sent);
    try (Listening http = start(Listening.server().maxBodySize(1024).build(), lengthAndCrc())) {
      HttpResponse<String> response =
          http.client.send(
              HttpRequest.newBuilder(http.uri("/upload"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(sent))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo(BODY + " " + Long.toHexString(expected.getValue()));
      assertThat(seen.get()).isNotNull();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ProcessingType.class,
      names = {"CPU_LITE", "BLOCKING_IO"})
  void aFlowThatAnswersWithTheStreamSendsItBackWhole(ProcessingType type) throws Exception {
    byte[] sent = body(3 * 1024 * 1024);
    try (Listening http =
        start(Listening.server().maxBodySize(1024).build(), Processor.of(type, m -> m))) {
      HttpResponse<byte[]> response =
          http.client.send(
              HttpRequest.newBuilder(http.uri("/upload"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(sent))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("content-type"))
          .hasValue("application/octet-stream");
      assertThat(response.body()).isEqualTo(sent);
    }
  }

  @Test
  void theFlowReadsTheFirstBytesBeforeTheClientSentTheRest() throws Exception {
    CompletableFuture<String> firstPart = new CompletableFuture<>();
    Processor reader =
        m -> {
          InputStream body = (InputStream) m.payload();
          String first = new String(body.readNBytes(5), "US-ASCII");
          firstPart.complete(first);
          return m.withPayload(first + "|" + new String(body.readAllBytes(), "US-ASCII"));
        };
    try (Listening http = start(Listening.server().build(), reader);
        RawClient client = http.raw()) {
      client.send(
          "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\nhello");
      // An aggregating listener would not start the flow before the last byte: this would wait.
      assertThat(firstPart.get(10, TimeUnit.SECONDS)).isEqualTo("hello");
      client.send("world");
      String response = client.readUntilClosed();
      assertThat(RawClient.status(response)).isEqualTo(200);
      assertThat(response).endsWith("hello|world");
    }
  }

  @Test
  void readingTheBodyOnTheEventLoopFailsAtOnceNamingTheFix() throws Exception {
    Processor onTheEventLoop =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              try {
                return m.withPayload("read " + ((InputStream) m.payload()).read());
              } catch (IOException e) {
                return m.withPayload(e.getMessage());
              }
            });
    try (Listening http = start(Listening.server().build(), onTheEventLoop);
        RawClient client = http.raw()) {
      client.send(
          "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc");
      String response = client.readUntilClosed();
      assertThat(response)
          .contains("cannot be read on the event loop")
          .contains("mark the processor that reads it BLOCKING_IO");
    }
  }

  @Test
  void aClientThatLeavesMidBodyFailsTheReadAndOthersAreStillServed() throws Exception {
    CompletableFuture<String> started = new CompletableFuture<>();
    CompletableFuture<Throwable> failed = new CompletableFuture<>();
    Processor reader =
        m -> {
          InputStream body = (InputStream) m.payload();
          if (m.attribute("headers") instanceof java.util.Map<?, ?> h && h.containsKey("x-leave")) {
            started.complete(new String(body.readNBytes(4), "US-ASCII"));
            try {
              body.readAllBytes();
              failed.complete(null);
            } catch (IOException e) {
              failed.complete(e);
            }
          }
          return m.withPayload("fine");
        };
    try (Listening http = start(Listening.server().build(), reader)) {
      try (RawClient leaving = http.raw()) {
        leaving.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nX-Leave: yes\r\nContent-Length: 1000\r\n\r\nsome");
        assertThat(started.get(10, TimeUnit.SECONDS)).isEqualTo("some");
      }
      assertThat(failed.get(10, TimeUnit.SECONDS))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("closed before the body ended");
      assertThat(http.get("/upload").body()).isEqualTo("fine");
    }
  }

  @Test
  void aBodyStillArrivingWhenTheRequestTimesOutIsAnswered408() throws Exception {
    Supplier<Processor> reader =
        () ->
            m -> {
              try {
                ((InputStream) m.payload()).readAllBytes();
              } catch (IOException e) {
                // the exchange ended under it: what this test checks is the client's answer
              }
              return m;
            };
    HttpServerConfig config = Listening.server().requestTimeout(Duration.ofMillis(500)).build();
    try (Listening http = start(config, reader.get());
        RawClient client = http.raw()) {
      client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part");
      String response = client.readUntilClosed();
      assertThat(RawClient.status(response)).isEqualTo(408);
      assertThat(http.refused("slow-client")).isEqualTo(1);
    }
  }
}
