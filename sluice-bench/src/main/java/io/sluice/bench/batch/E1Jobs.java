package io.sluice.bench.batch;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.http.HttpRequestConfig;
import io.sluice.http.HttpRequestProcessor;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The batch jobs of benchmark E1, each one step over generated records:
 *
 * <ul>
 *   <li>{@code cpu}: a CSV-like order line is parsed and turned into a map with its total
 *       (CPU_INTENSIVE), then hashed with SHA-256 {@code hashRounds} times (CPU_INTENSIVE); the
 *       digest is the record's new payload.
 *   <li>{@code io}: each record calls {@code GET /latency} of the local service through Sluice's
 *       HTTP requester (BLOCKING_IO).
 *   <li>{@code throttled}: each record calls {@code GET /capped}, which answers 429 above its
 *       concurrency cap; the batch engine makes a throttled call again after a pause.
 *   <li>{@code lite}: the CPU-light end-to-end case, a string upper-cased (CPU_LITE).
 * </ul>
 *
 * <p>Every job tolerates any number of failed records, so a run always ends and reports them.
 */
final class E1Jobs {

  /** The step's name, so its flow (and its {@code sluice.stage} meters) is found. */
  static final String STEP = "work";

  private E1Jobs() {}

  /** What a job needs besides its kind: where the service is and how hard to hash. */
  record Settings(int port, int maxConnections, int hashRounds, int blockSize) {}

  /** The flow the step of job {@code kind} runs as (BatchRun names it so). */
  static String flowName(String kind) {
    return "batch.e1-" + kind + "." + STEP;
  }

  /** Whether job {@code kind} calls the local service (and so runs over fewer records). */
  static boolean callsService(String kind) {
    return kind.equals("io") || kind.equals("throttled");
  }

  /**
   * Job {@code kind} over {@code records} records with {@code profile}: {@code auto} (every
   * default), a number of threads (a fixed threading profile), or {@code auto:N}, auto holding at
   * most N records at once (a diagnostic: how many records wait for auto's limit changes what a
   * wake-up costs).
   */
  static BatchJob job(String kind, String profile, long records, Settings settings) {
    BatchJob.Builder job =
        BatchJob.builder("e1-" + kind)
            .blockSize(settings.blockSize())
            .maxFailedRecords(BatchJob.UNLIMITED);
    if (profile.startsWith("auto:")) {
      int maxInFlight = Integer.parseInt(profile.substring(5));
      ProcessingStrategy.Auto defaults = ProcessingStrategy.Auto.DEFAULT;
      job.strategy(
          new ProcessingStrategy.Auto(
              maxInFlight,
              defaults.backpressure(),
              defaults.waitTimeout(),
              Math.min(defaults.initialLimit(), maxInFlight),
              defaults.maxLimit()));
    } else if (!profile.equals("auto")) {
      job.threads(Integer.parseInt(profile));
    }
    BatchStep.Builder step = BatchStep.builder(STEP);
    switch (kind) {
      case "cpu" -> {
        job.input(BatchInput.generator(records, E1Jobs::orderLine));
        step.processor(Processor.of(ProcessingType.CPU_INTENSIVE, E1Jobs::parse));
        step.processor(
            Processor.of(ProcessingType.CPU_INTENSIVE, m -> hash(m, settings.hashRounds())));
      }
      case "io", "throttled" -> {
        job.input(BatchInput.generator(records, i -> i));
        String path = kind.equals("io") ? "/latency" : "/capped";
        step.processor(call(settings, path));
      }
      case "lite" -> {
        job.input(BatchInput.generator(records, i -> "record-" + i));
        step.processor(
            Processor.of(
                ProcessingType.CPU_LITE,
                m -> m.withPayload(((String) m.payload()).toUpperCase(Locale.ROOT))));
      }
      default ->
          throw new IllegalArgumentException("unknown job " + kind + "; cpu, io, throttled, lite");
    }
    return job.step(step.build()).build();
  }

  /** A new requester per run: its connection pool starts and stops with the run's flow. */
  private static Processor call(Settings settings, String path) {
    String url = "http://127.0.0.1:" + settings.port() + path;
    return new HttpRequestProcessor(
        HttpRequestConfig.builder("GET", Template.parse("url", url))
            .maxConnectionsPerHost(settings.maxConnections())
            .build());
  }

  /** Order line {@code i}: id, customer, sku, quantity, unit price, currency, country. */
  static String orderLine(long i) {
    return i
        + ",customer-"
        + (i % 9973)
        + ",sku-"
        + (i * 7919 % 50_000)
        + ","
        + (1 + i % 17)
        + ","
        + (i % 1000) / 10
        + "."
        + (i % 10)
        + "9,EUR,"
        + COUNTRIES[(int) (i % COUNTRIES.length)];
  }

  private static final String[] COUNTRIES = {"DE", "FR", "NL", "IT", "ES", "PL", "SE"};

  /** Parses an order line into a map with the line's total (quantity × unit price). */
  private static Message parse(Message message) {
    String[] fields = ((String) message.payload()).split(",");
    if (fields.length != 7) {
      throw new IllegalArgumentException("an order line has 7 fields, not " + fields.length);
    }
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("id", Long.parseLong(fields[0]));
    order.put("customer", fields[1].toUpperCase(Locale.ROOT));
    order.put("sku", fields[2]);
    int quantity = Integer.parseInt(fields[3]);
    BigDecimal price = new BigDecimal(fields[4]);
    order.put("quantity", quantity);
    order.put("total", price.multiply(BigDecimal.valueOf(quantity)).toPlainString());
    order.put("currency", fields[5]);
    order.put("country", fields[6]);
    return message.withPayload(order);
  }

  /** SHA-256 of the order's text, {@code rounds} times over; the hex digest is the payload. */
  private static Message hash(Message message, int rounds) throws NoSuchAlgorithmException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    byte[] digest = message.payload().toString().getBytes(StandardCharsets.UTF_8);
    for (int r = 0; r < rounds; r++) {
      digest = sha.digest(digest);
    }
    return message.withPayload(HexFormat.of().formatHex(digest));
  }
}
