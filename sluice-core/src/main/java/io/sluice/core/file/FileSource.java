package io.sluice.core.file;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.FlowBusyException;
import io.sluice.core.FlowStartException;
import io.sluice.core.Message;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.spi.TimerService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source that polls a directory and hands each matching file to its flow: the payload is the
 * file's bytes, or with {@code streaming} an {@link java.io.InputStream} that reads them from disk
 * as the flow consumes it (closed when the flow is done; it fails at its end when the file was cut
 * short or grew while it was read); the attributes are {@code fileName}, {@code path} (absolute),
 * {@code size} and {@code lastModified} (an {@link Instant}).
 *
 * <p>Nothing accepted is lost: a file is deleted or moved only after its flow finished it
 * successfully, and only if it is still the file that was listed (the same file key, size and
 * modification time): one replaced or written to meanwhile stays and is read again. A file whose
 * flow failed, or that the flow refused because it was full, stays where it is and is read again at
 * a later poll (so delivery is at least once).
 *
 * <p>Each poll lists the regular files whose name matches the glob, skipping hidden files (names
 * starting with {@code .}, which is how {@link FileWriteProcessor} names its temporary files),
 * files already in the flow, and files modified less than {@code minAge} ago by the flow's clock
 * ({@code minAge} zero skips the check). Files are handed over oldest first, files that failed
 * before going last so a file that keeps failing cannot starve the others, and never more than
 * {@code maxConcurrentFiles} at once. The next poll is scheduled on the flow's timer when one ends.
 *
 * <p>Metrics, tagged {@code flow}: {@code sluice.file.read} (files read and handed to the flow,
 * each attempt), {@code sluice.file.failed} (attempts that ended in an error: the flow's, or one
 * reading, deleting or moving the file) and {@code sluice.file.refused} (attempts the flow refused
 * because it was full).
 *
 * <p>A failure that repeats is not logged per file and poll: the first is logged whole, then a
 * summary at most every {@link RepeatedFailureLog#DEFAULT_INTERVAL}, and a line once files go
 * through again (a flow whose store is full fails every waiting file at every poll).
 */
public final class FileSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(FileSource.class);

  /** The largest file read whole into one array (the JVM's largest array, less a margin). */
  static final long MAX_WHOLE_FILE = Integer.MAX_VALUE - 8;

  private final FileSourceConfig config;
  private final Path directory;
  private final FileRemoval removal;
  private final PathMatcher matcher;
  private final Set<Path> inFlight = ConcurrentHashMap.newKeySet();
  private final Set<Path> failedBefore = ConcurrentHashMap.newKeySet();
  private final Object schedule = new Object();
  private final Object polling = new Object();
  private final AtomicBoolean refillPending = new AtomicBoolean();
  private volatile boolean backlog;
  private SourceContext context;
  private Counter read;
  private Counter failed;
  private Counter refused;
  private RepeatedFailureLog pollFailures;
  private RepeatedFailureLog fileFailures;
  private boolean running;
  private TimerService.Cancellable nextPoll;

  /** A source polling as {@code config} says. */
  public FileSource(FileSourceConfig config) {
    this.config = config;
    this.directory = config.directory().toAbsolutePath().normalize();
    this.removal = new FileRemoval(config, directory);
    this.matcher = FileSystems.getDefault().getPathMatcher("glob:" + config.pattern());
  }

  /**
   * Checks the directory (it must exist), creates {@code moveTo} when MOVE needs it, and schedules
   * the first poll at once on the flow's timer.
   *
   * @throws FlowStartException naming the directory when it is missing or not a directory, or when
   *     {@code moveTo} cannot be created
   */
  @Override
  public void start(SourceContext flowContext) {
    if (!Files.isDirectory(directory)) {
      String problem = Files.exists(directory) ? "is not a directory" : "does not exist";
      throw new FlowStartException(
          flowContext.flowName(),
          "Input directory '"
              + directory
              + "' "
              + problem
              + "; create it or fix the file source's 'directory'");
    }
    if (config.afterRead() == AfterRead.MOVE) {
      try {
        removal.prepare();
      } catch (IOException e) {
        throw new FlowStartException(
            flowContext.flowName(),
            "Cannot create the moveTo directory '"
                + removal.moveTo()
                + "' ("
                + e
                + "); create it or fix the file source's 'moveTo'");
      }
    }
    this.context = flowContext;
    MeterRegistry registry = flowContext.meterRegistry();
    this.read = counter(registry, "sluice.file.read", "Files read and handed to the flow");
    this.failed =
        counter(
            registry,
            "sluice.file.failed",
            "File attempts that ended in an error: the flow's, or reading, deleting or moving it");
    this.refused =
        counter(
            registry,
            "sluice.file.refused",
            "File attempts the flow refused because it was full; the file stays for a later poll");
    this.pollFailures =
        new RepeatedFailureLog(
            LOG,
            "Polling '" + directory + "' for flow '" + flowContext.flowName() + "'",
            flowContext.clock());
    this.fileFailures =
        new RepeatedFailureLog(
            LOG,
            "Flow '" + flowContext.flowName() + "' failing on files of '" + directory + "'",
            flowContext.clock());
    LOG.info(
        "File source of flow '{}' polls '{}' for '{}' every {}, minAge {}, at most {} at "
            + "once, then {}",
        flowContext.flowName(),
        directory,
        config.pattern(),
        config.pollingFrequency(),
        config.minAge(),
        config.maxConcurrentFiles(),
        removal.describe());
    synchronized (schedule) {
      running = true;
      nextPoll = flowContext.timer().schedule(Duration.ZERO, this::pollAndReschedule);
    }
  }

  /** Cancels the next poll; files already in the flow are still deleted or moved when done. */
  @Override
  public void stop() {
    synchronized (schedule) {
      running = false;
      if (nextPoll != null) {
        nextPoll.cancel();
        nextPoll = null;
      }
    }
  }

  @Override
  public String name() {
    return "file(" + directory + ")";
  }

  /** With {@code streaming}, each payload is a stream open on the file. */
  @Override
  public boolean handsStreams() {
    return config.streaming();
  }

  private Counter counter(MeterRegistry registry, String name, String description) {
    return Counter.builder(name)
        .tag("flow", context.flowName())
        .description(description)
        .register(registry);
  }

  private void pollAndReschedule() {
    try {
      poll();
      pollFailures.recovered();
    } catch (RuntimeException e) {
      // A poll must never kill the polling: log it and try again next time.
      pollFailures.failed(
          "Polling '{}' for flow '{}' failed; trying again in {}",
          directory,
          context.flowName(),
          config.pollingFrequency(),
          e);
    } finally {
      synchronized (schedule) {
        if (running) {
          nextPoll = context.timer().schedule(config.pollingFrequency(), this::pollAndReschedule);
        }
      }
    }
  }

  /**
   * One poll: lists what is ready and hands over as much as the limit allows. When the limit left
   * files behind, it notes a backlog, and each file finished then triggers a poll at once instead
   * of waiting for the next period: the directory drains as fast as the flow can take it.
   */
  private void poll() {
    synchronized (polling) {
      if (!isRunning()) {
        return;
      }
      List<Candidate> candidates = list();
      failedBefore.retainAll(candidates.stream().map(Candidate::path).collect(Collectors.toSet()));
      for (Candidate candidate : candidates) {
        if (!isRunning()) {
          return;
        }
        if (inFlight.size() >= config.maxConcurrentFiles()) {
          backlog = true;
          return;
        }
        if (inFlight.add(candidate.path())) {
          handOver(candidate);
        }
      }
      backlog = false;
    }
  }

  /** Polls again at once when files wait and one just left the flow successfully. */
  private void refill() {
    if (backlog && isRunning() && refillPending.compareAndSet(false, true)) {
      context
          .timer()
          .schedule(
              Duration.ZERO,
              () -> {
                refillPending.set(false);
                try {
                  poll();
                } catch (RuntimeException e) {
                  pollFailures.failed(
                      "Polling '{}' for flow '{}' failed; trying again at the next poll",
                      directory,
                      context.flowName(),
                      e);
                }
              });
    }
  }

  private boolean isRunning() {
    synchronized (schedule) {
      return running;
    }
  }

  record Candidate(Path path, BasicFileAttributes attributes, boolean failedBefore) {}

  private List<Candidate> list() {
    Instant youngest = context.clock().instant().minus(config.minAge());
    boolean checkAge = !config.minAge().isZero();
    List<Candidate> found = new ArrayList<>();
    DirectoryStream.Filter<Path> filter =
        path -> {
          Path name = path.getFileName();
          return !name.toString().startsWith(".") && matcher.matches(name);
        };
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, filter)) {
      for (Path path : files) {
        BasicFileAttributes attributes;
        try {
          attributes =
              Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (!attributes.isRegularFile() || inFlight.contains(path)) {
          continue;
        }
        if (checkAge && attributes.lastModifiedTime().toInstant().isAfter(youngest)) {
          continue;
        }
        found.add(new Candidate(path, attributes, failedBefore.contains(path)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list '" + directory + "'", e);
    }
    found.sort(
        Comparator.comparing(Candidate::failedBefore)
            .thenComparing(c -> c.attributes().lastModifiedTime())
            .thenComparing(Candidate::path));
    return found;
  }

  private void handOver(Candidate candidate) {
    Path path = candidate.path();
    Object payload;
    long size;
    try {
      if (config.streaming()) {
        FileStream stream = FileStream.open(path, context.flowName());
        payload = stream;
        size = stream.sizeAtOpen();
      } else {
        if (candidate.attributes().size() > MAX_WHOLE_FILE) {
          throw new IOException(
              "it is "
                  + candidate.attributes().size()
                  + " bytes, more than a file source reads whole ("
                  + MAX_WHOLE_FILE
                  + "); set streaming: true to hand the flow a stream instead");
        }
        byte[] bytes = Files.readAllBytes(path);
        payload = bytes;
        size = bytes.length;
      }
    } catch (NoSuchFileException gone) {
      inFlight.remove(path);
      return;
    } catch (IOException | RuntimeException e) {
      failed.increment();
      failedBefore.add(path);
      inFlight.remove(path);
      fileFailures.failed(
          "Cannot read '{}' for flow '{}'; it stays and is tried again at a later poll: {}",
          path,
          context.flowName(),
          e.toString());
      return;
    }
    Map<String, Object> attributes =
        Map.of(
            "fileName", path.getFileName().toString(),
            "path", path.toString(),
            "size", size,
            "lastModified", candidate.attributes().lastModifiedTime().toInstant());
    read.increment();
    CompletableFuture<Message> result;
    try {
      result = context.submit(Message.of(payload, attributes));
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    result.whenComplete(
        (done, error) -> {
          if (payload instanceof FileStream stream) {
            closeQuietly(stream, path);
          }
          finished(candidate, error);
        });
  }

  private void closeQuietly(FileStream stream, Path path) {
    try {
      stream.close();
    } catch (IOException e) {
      LOG.debug("Closing '{}' failed: {}", path, e.toString());
    }
  }

  /** Runs when the flow is done with a file, on whichever thread finished it. */
  private void finished(Candidate candidate, Throwable error) {
    Path path = candidate.path();
    try {
      Throwable cause =
          error instanceof CompletionException && error.getCause() != null
              ? error.getCause()
              : error;
      if (cause == null) {
        if (remove(candidate)) {
          fileFailures.recovered();
        }
        failedBefore.remove(path);
        inFlight.remove(path);
        refill();
      } else if (cause instanceof FlowBusyException busy) {
        refused.increment();
        LOG.debug(
            "Flow '{}' refused '{}'; it stays for a later poll: {}",
            context.flowName(),
            path,
            busy.getMessage());
      } else {
        failed.increment();
        failedBefore.add(path);
        fileFailures.failed(
            "Flow '{}' failed on '{}'; the file stays and is read again at a later poll: {}",
            context.flowName(),
            path,
            cause.toString());
      }
    } finally {
      inFlight.remove(path);
    }
  }

  /**
   * Deletes or moves a finished file; false (logged) when that failed, or when the file is no
   * longer the one listed: replaced or written to while its flow had it, it stays to be read again.
   */
  private boolean remove(Candidate candidate) {
    Path path = candidate.path();
    try {
      String changed = FileRemoval.changedSinceListed(candidate);
      if (changed != null) {
        fileFailures.failed(
            "Flow '{}' finished '{}' but the file {} since it was read; it stays and is read"
                + " again at a later poll",
            context.flowName(),
            path,
            changed);
        return false;
      }
      removal.apply(path);
      return true;
    } catch (NoSuchFileException gone) {
      fileFailures.failed(
          "Flow '{}' finished '{}' but someone else deleted or moved it meanwhile; nothing to {}",
          context.flowName(),
          path,
          config.afterRead() == AfterRead.DELETE ? "delete" : "move");
      return true;
    } catch (IOException | RuntimeException e) {
      failed.increment();
      fileFailures.failed(
          "Flow '{}' finished '{}' but the file could not be {}; it will be read again at a "
              + "later poll: {}",
          context.flowName(),
          path,
          config.afterRead() == AfterRead.DELETE
              ? "deleted"
              : "moved to '" + removal.moveTo() + "'",
          e.toString());
      return false;
    }
  }
}
