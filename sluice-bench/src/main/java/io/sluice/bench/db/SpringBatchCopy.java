package io.sluice.bench.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.sluice.bench.db.CopyTables.CopiedOrder;
import io.sluice.bench.db.CopyTables.Order;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.Job;
import org.springframework.batch.core.JobExecution;
import org.springframework.batch.core.JobParametersBuilder;
import org.springframework.batch.core.Step;
import org.springframework.batch.core.StepExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.launch.support.TaskExecutorJobLauncher;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JobRepositoryFactoryBean;
import org.springframework.batch.core.step.builder.SimpleStepBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.item.ItemStreamReader;
import org.springframework.batch.item.database.JdbcBatchItemWriter;
import org.springframework.batch.item.database.JdbcCursorItemReader;
import org.springframework.batch.item.database.builder.JdbcBatchItemWriterBuilder;
import org.springframework.batch.item.database.builder.JdbcCursorItemReaderBuilder;
import org.springframework.batch.item.support.builder.SynchronizedItemStreamReaderBuilder;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The Spring Batch side of {@link TableCopyBenchmark}: a job of one chunk-oriented step, a {@link
 * JdbcCursorItemReader} (a cursor of {@code fetchSize} rows per round trip, outside autocommit so
 * that PostgreSQL's driver really uses one), the transformation as an item processor and a {@link
 * JdbcBatchItemWriter} (one JDBC batch per chunk), each chunk a transaction. Its job repository is
 * a real one: JDBC, in the benchmark's schema on the same PostgreSQL, made by the script Spring
 * Batch ships ({@code schema-postgresql.sql}). With {@code threads} above 1 the step is
 * multi-threaded (a task executor of that many threads) and the cursor reader is wrapped in a
 * {@code SynchronizedItemStreamReader}, which makes it safe to share (its state is not saved: a
 * multi-threaded step cannot restart where it stopped). All on one HikariCP pool of 10 connections,
 * the size of Sluice's default.
 */
final class SpringBatchCopy implements AutoCloseable {

  private final HikariDataSource dataSource;
  private final DataSourceTransactionManager transactions;
  private final JobRepository repository;
  private final TaskExecutorJobLauncher launcher;

  /** Makes the job repository's tables in the benchmark's schema and opens the pool. */
  SpringBatchCopy() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(CopyTables.URL);
    config.setUsername(CopyTables.USER);
    config.setMaximumPoolSize(10);
    config.setPoolName("spring-batch");
    dataSource = new HikariDataSource(config);
    new ResourceDatabasePopulator(
            new ClassPathResource("org/springframework/batch/core/schema-postgresql.sql"))
        .execute(dataSource);
    transactions = new DataSourceTransactionManager(dataSource);
    JobRepositoryFactoryBean factory = new JobRepositoryFactoryBean();
    factory.setDataSource(dataSource);
    factory.setTransactionManager(transactions);
    factory.setDatabaseType("POSTGRES");
    factory.afterPropertiesSet();
    repository = factory.getObject();
    launcher = new TaskExecutorJobLauncher();
    launcher.setJobRepository(repository);
    launcher.afterPropertiesSet();
  }

  /** Runs the copy as a new job instance; returns the rows the step wrote. */
  long copy(int chunk, int threads, int fetchSize) throws Exception {
    JdbcCursorItemReader<Order> cursor =
        new JdbcCursorItemReaderBuilder<Order>()
            .name("orders")
            .dataSource(dataSource)
            .sql(CopyTables.SELECT)
            .fetchSize(fetchSize)
            .connectionAutoCommit(false)
            .saveState(threads == 1)
            .rowMapper((rows, row) -> CopyTables.order(rows))
            .build();
    ItemStreamReader<Order> reader =
        threads == 1
            ? cursor
            : new SynchronizedItemStreamReaderBuilder<Order>().delegate(cursor).build();
    JdbcBatchItemWriter<CopiedOrder> writer =
        new JdbcBatchItemWriterBuilder<CopiedOrder>()
            .dataSource(dataSource)
            .sql(CopyTables.INSERT_POSITIONAL)
            .itemPreparedStatementSetter((order, insert) -> CopyTables.bind(insert, order))
            .build();
    ThreadPoolTaskExecutor executor = null;
    SimpleStepBuilder<Order, CopiedOrder> step =
        new StepBuilder("copy", repository)
            .<Order, CopiedOrder>chunk(chunk, transactions)
            .reader(reader)
            .processor(CopyTables::transform)
            .writer(writer);
    if (threads > 1) {
      executor = new ThreadPoolTaskExecutor();
      executor.setCorePoolSize(threads);
      executor.setMaxPoolSize(threads);
      executor.setThreadNamePrefix("spring-batch-copy-");
      executor.initialize();
      step.taskExecutor(executor);
    }
    try {
      Step built = step.build();
      Job job = new JobBuilder("copy-orders", repository).start(built).build();
      JobExecution execution =
          launcher.run(
              job, new JobParametersBuilder().addLong("run", System.nanoTime()).toJobParameters());
      if (execution.getStatus() != BatchStatus.COMPLETED) {
        throw new IllegalStateException(
            "Spring Batch ended "
                + execution.getStatus()
                + ": "
                + execution.getAllFailureExceptions());
      }
      long written = 0;
      for (StepExecution stepExecution : execution.getStepExecutions()) {
        written += stepExecution.getWriteCount();
      }
      return written;
    } finally {
      if (executor != null) {
        executor.shutdown();
      }
    }
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
