package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariPoolMXBean;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Foreach;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.RemoteJmx;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One pool per data source, opened once for every processor of every flow naming it, its meters on
 * the application's registry tagged with its name, its connections back after each call (a
 * streaming select's too, whether gone through to its end or cut short), seen over JMX, and closed
 * when the application stops.
 */
class APoolIsSharedMeteredAndClosedWithTheApplicationTest {

  private static final ObjectName POOL_BEAN = objectName("com.zaxxer.hikari:type=Pool (db)");

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @TempDir Path dir;
  private TestDb db;
  private String table;

  @BeforeEach
  void table() throws Exception {
    db = TestDb.sqlite(dir);
    table = TestDb.table("rows");
    db.execute("CREATE TABLE " + table + " (n integer)");
    db.execute("INSERT INTO " + table + " (n) VALUES (1), (2), (3), (4), (5)");
  }

  private DbSelectProcessor streaming(DataSources sources) {
    return new DbSelectProcessor(
        sources,
        DbStatement.of("db", "SELECT n FROM " + table + " ORDER BY n", Map.of(), null),
        true,
        2,
        0);
  }

  private static double gauge(SimpleMeterRegistry registry, String name) {
    Gauge gauge = registry.find(name).tag("pool", "db").gauge();
    assertThat(gauge).as(name + " tagged pool=db").isNotNull();
    return gauge.value();
  }

  private static double active(SimpleMeterRegistry registry) {
    return gauge(registry, "hikaricp.connections.active");
  }

  @Test
  void twoFlowsShareOnePoolWhoseMetersNameTheDataSourceAndWhichClosesWithTheApplication()
      throws Exception {
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Processor fail =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (((Map<?, ?>) m.payload()).get("n").equals(2)) {
                throw new IllegalStateException("cut short at 2");
              }
              return m;
            });
    Flow whole =
        Flow.builder("whole").processor(streaming(sources)).processor(Foreach.of()).build();
    Flow cut =
        Flow.builder("cut").processor(streaming(sources)).processor(Foreach.of(fail)).build();
    Flow dropped = Flow.builder("dropped").processor(streaming(sources)).build();

    try (Application app =
        Application.builder().meterRegistry(registry).flow(whole).flow(cut).flow(dropped).build()) {
      app.start();
      assertThat(sources.isOpen("db")).isTrue();

      app.send("whole", Message.of(null)).get(10, TimeUnit.SECONDS);
      try {
        app.send("cut", Message.of(null)).get(10, TimeUnit.SECONDS);
      } catch (ExecutionException expected) {
        assertThat(expected).hasRootCauseMessage("cut short at 2");
      }
      Object rows = app.send("dropped", Message.of(null)).get(10, TimeUnit.SECONDS).payload();
      ((DbRows) rows).close();

      await().atMost(Duration.ofSeconds(5)).until(() -> active(registry) == 0);
      assertThat(gauge(registry, "hikaricp.connections.max")).isEqualTo(4);
      assertThat(registry.find("hikaricp.connections.acquire").tag("pool", "db").timer().count())
          .isEqualTo(3);
      try (RemoteJmx jmx = RemoteJmx.connect()) {
        HikariPoolMXBean bean = jmx.proxy(POOL_BEAN, HikariPoolMXBean.class);
        assertThat(bean.getTotalConnections()).as("connections open").isPositive();
        assertThat(bean.getActiveConnections()).as("connections lent").isZero();
        assertThat(bean.getThreadsAwaitingConnection()).isZero();
      }
    }
    assertThat(sources.isOpen("db")).isFalse();
    assertThat(registry.find("hikaricp.connections.active").gauges()).isEmpty();
    assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(POOL_BEAN))
        .as("the pool's MBean leaves with the pool")
        .isFalse();
  }

  @Test
  void aStreamingSelectGoneThroughByHandGivesItsConnectionBackAtItsEnd() throws Exception {
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Flow flow = Flow.builder("rows").processor(streaming(sources)).build();
    try (Application app = Application.builder().meterRegistry(registry).flow(flow).build()) {
      app.start();
      DbRows rows = (DbRows) app.send("rows", Message.of(null)).get(10, TimeUnit.SECONDS).payload();
      assertThat(gauge(registry, "hikaricp.connections.active")).isEqualTo(1);

      List<Object> values = new java.util.ArrayList<>();
      rows.forEachRemaining(row -> values.add(row.get("n")));

      assertThat(values).containsExactly(1, 2, 3, 4, 5);
      assertThat(rows.hasNext()).isFalse();
      // HikariCP refreshes the figures its gauges show at most once a second.
      await().atMost(Duration.ofSeconds(5)).until(() -> active(registry) == 0);
    }
  }
}
