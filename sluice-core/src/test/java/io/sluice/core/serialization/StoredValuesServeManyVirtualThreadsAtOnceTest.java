package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class StoredValuesServeManyVirtualThreadsAtOnceTest {

  @Test
  void sixtyFourVirtualThreadsWriteAndReadWithoutInterfering() throws Exception {
    StoredValues application = Fixtures.storedValues("jdk", "deflate");
    List<StoredValues> formats =
        List.of(application, application.using("jdk", "gzip"), application.using("jdk", "none"));
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < 64; t++) {
        int thread = t;
        results.add(
            threads.submit(
                () -> {
                  start.await();
                  int checked = 0;
                  for (int i = 0; i < 50; i++) {
                    Fixtures.Customer value =
                        new Fixtures.Customer(
                            "c-" + thread + "-" + i,
                            new Fixtures.Address("street " + i, "city " + thread),
                            List.of("t" + i));
                    StoredValues writer = formats.get((thread + i) % formats.size());
                    StoredValues reader = formats.get((thread + i + 1) % formats.size());
                    assertThat(reader.read(writer.write(value))).isEqualTo(value);
                    checked++;
                  }
                  return checked;
                }));
      }
      start.countDown();
    }
    int total = 0;
    for (Future<Integer> result : results) {
      total += result.get();
    }
    assertThat(total).isEqualTo(64 * 50);
  }
}
