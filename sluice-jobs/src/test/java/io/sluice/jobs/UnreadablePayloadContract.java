package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.NewJob;
import java.io.File;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A job whose stored payload cannot be read (bytes that are no stored value, a flipped byte, a
 * truncated record, a class outside the allow-list) becomes an incident at once, carrying why, with
 * one warning and a count, while the node runs every other job: on SQLite and on PostgreSQL, each
 * payload corrupted in its row with SQL.
 */
abstract class UnreadablePayloadContract extends JobExecutorFixture {

  /** A serializable payload of a class the default allow-list leaves out. */
  private static final File NOT_ALLOWED = new File("/etc/passwd");

  @Test
  void everyPayloadThatCannotBeReadIsAnIncidentAtOnceAndTheNodeRunsTheOtherJobs() throws Exception {
    List<Long> good = emails(40);
    long garbage = poisoned(bytes -> "not a stored value".getBytes());
    long flipped =
        poisoned(
            bytes -> {
              byte[] copy = bytes.clone();
              copy[copy.length - 3] ^= 0x5A;
              return copy;
            });
    long truncated = poisoned(bytes -> Arrays.copyOf(bytes, bytes.length - 4));
    // Written by an application that allows the class; this node's allow-list does not.
    long notAllowed =
        JobStores.open(
                storage,
                StoredValues.create(SerializationConfig.builder().allow("java.io.File").build()),
                Duration.ofSeconds(1))
            .create(NewJob.of("email", NOT_ALLOWED));
    Set<Object> ran = ConcurrentHashMap.newKeySet();

    start("node-a", Map.of("email", job -> ran.add(job.id())), c -> c.concurrency(4).prefetch(4));

    List<Long> poisoned = List.of(garbage, flipped, truncated, notAllowed);
    await()
        .atMost(PATIENCE)
        .until(() -> finished(good) && poisoned.stream().allMatch(this::isIncident));
    assertThat(ran).containsExactlyInAnyOrderElementsOf(good);
    assertThat(error(garbage)).contains("CorruptRecordException");
    assertThat(error(flipped)).contains("CorruptRecordException");
    assertThat(error(truncated)).contains("CorruptRecordException");
    assertThat(error(notAllowed)).contains(File.class.getName());
    for (long id : poisoned) {
      JobInfo job = store.find(id).orElseThrow();
      assertThat(error(id)).as("job %d's error", id).startsWith("The payload cannot be read: ");
      assertThat(job.attempts()).as("attempts of job %d: no retry burnt", id).isEqualTo(1);
      assertThat(warnings("Job " + id + " of type 'email'"))
          .as("warnings about job %d", id)
          .singleElement()
          .asString()
          .contains("is an incident at once: ")
          .contains(error(id));
    }
    assertThat(count("sluice.jobs.unreadable", "node-a")).isEqualTo(4);
    assertThat(count("sluice.jobs.incidents", "node-a")).isEqualTo(4);
    assertThat(count("sluice.jobs.failed", "node-a")).isZero();
    assertThat(count("sluice.jobs.executed", "node-a")).isEqualTo(good.size());
  }

  /** Creates an email job, then rewrites its payload row with SQL through {@code corrupt}. */
  private long poisoned(UnaryOperator<byte[]> corrupt) throws Exception {
    long id = store.create(NewJob.of("email", "to bob"));
    try (Connection connection = connect();
        PreparedStatement read =
            connection.prepareStatement("SELECT payload FROM sluice_job_payload WHERE id = ?");
        PreparedStatement write =
            connection.prepareStatement("UPDATE sluice_job_payload SET payload = ? WHERE id = ?")) {
      read.setLong(1, id);
      byte[] bytes;
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).isTrue();
        bytes = rs.getBytes(1);
      }
      write.setBytes(1, corrupt.apply(bytes));
      write.setLong(2, id);
      assertThat(write.executeUpdate()).isEqualTo(1);
    }
    return id;
  }

  private boolean isIncident(long id) {
    return state(id) instanceof JobState.Incident;
  }

  private String error(long id) {
    return ((JobState.Incident) state(id)).error();
  }
}
