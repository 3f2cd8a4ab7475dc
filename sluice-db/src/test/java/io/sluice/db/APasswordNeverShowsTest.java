package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.MariaDbTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * A password, given as a setting or in the URL, shows neither in the data source's description nor
 * in the error of a login the database refuses, nor in any log line of the run.
 */
class APasswordNeverShowsTest {

  private static final String PASSWORD = "Pw-setting-7f3a";
  private static final String URL_PASSWORD = "Pw-in-url-91c2";

  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);

  @BeforeEach
  void capture() {
    log.start();
    root.addAppender(log);
  }

  @AfterEach
  void release() {
    root.detachAppender(log);
  }

  private static String everything(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  @Test
  void aRefusedLoginNamesNeitherPassword() throws Exception {
    DataSourceConfig withSetting =
        DataSourceConfig.builder("db", MARIADB.url())
            .user(MariaDbTestDatabase.USER)
            .password(PASSWORD)
            .connectionTimeout(Duration.ofMillis(500))
            .build();
    DataSourceConfig inUrl =
        DataSourceConfig.builder("url", MARIADB.url() + "?password=" + URL_PASSWORD)
            .user(MariaDbTestDatabase.USER)
            .connectionTimeout(Duration.ofMillis(500))
            .build();
    DataSources sources = new DataSources(List.of(withSetting, inUrl));
    Flow one =
        Flow.builder("one")
            .processor(
                DbSelectProcessor.of(sources, DbStatement.of("db", "SELECT 1", Map.of(), null)))
            .build();
    Flow two =
        Flow.builder("two")
            .processor(
                DbSelectProcessor.of(sources, DbStatement.of("url", "SELECT 1", Map.of(), null)))
            .build();

    StringBuilder shown = new StringBuilder(withSetting + "\n" + inUrl + "\n");
    try (Application app = Application.builder().flow(one).flow(two).build()) {
      app.start();
      for (String flow : List.of("one", "two")) {
        try {
          app.send(flow, Message.of(null)).get(30, TimeUnit.SECONDS);
          throw new AssertionError(flow + " should have been refused");
        } catch (ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(DbException.class);
          assertThat(((DbException) e.getCause()).errorType()).isEqualTo("DB:CONNECTIVITY");
          shown.append(everything(e.getCause()));
        }
      }
    }
    log.list.forEach(
        event -> {
          shown.append(event.getFormattedMessage()).append('\n');
          if (event.getThrowableProxy() != null) {
            shown.append(event.getThrowableProxy().getMessage()).append('\n');
          }
        });

    assertThat(shown.toString())
        .contains("Access denied")
        .contains("password=***")
        .doesNotContain(PASSWORD)
        .doesNotContain(URL_PASSWORD);
  }
}
