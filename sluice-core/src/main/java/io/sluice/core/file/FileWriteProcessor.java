package io.sluice.core.file;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A sink that writes each message's payload to a file in one directory. A {@code byte[]} payload is
 * written as is, a {@code String} as UTF-8, an {@link java.io.InputStream} (a streamed file, a
 * streamed request body) read to its end a buffer at a time, anything else as its {@link
 * String#valueOf} text, and a null payload as an empty file. A stream that fails half-way leaves no
 * part of itself behind: OVERWRITE keeps the old file, APPEND cuts the file back to where the
 * append began, CREATE_NEW deletes the file it created.
 *
 * <p>The file name is the {@code fileName} template rendered against the message ({@code
 * #[attributes.fileName]} by default in YAML). A rendered name that is empty, {@code .}, {@code ..}
 * or holds a path separator is an error naming the value: a sink writes only into its own
 * directory.
 *
 * <p>In {@link WriteMode#OVERWRITE} the bytes go to a hidden temporary file in the same directory
 * (named {@code .<name>.<random>.tmp}, which the {@link FileSource} skips), are forced to disk, and
 * the file is then moved into place atomically: a reader, or the process after a crash, sees the
 * old file or the new one, never half of one. {@link WriteMode#APPEND} and {@link
 * WriteMode#CREATE_NEW} write in place; each append is whole, even with many threads, flows or
 * Sluice processes appending to the same file at once (a lock per path in the process, a {@link
 * java.nio.channels.FileLock} across processes).
 *
 * <p>The message goes on unchanged except for the attribute {@code writtenPath}: the absolute path
 * of the file written, as a string.
 */
public final class FileWriteProcessor implements Processor {

  /** The attribute this sink sets to the absolute path of the file it wrote. */
  public static final String WRITTEN_PATH = "writtenPath";

  private final Path directory;
  private final Template fileName;
  private final WriteMode mode;

  /** Writes into {@code directory}, naming files by {@code fileName}, in {@code mode}. */
  public FileWriteProcessor(Path directory, Template fileName, WriteMode mode) {
    this.directory = directory.toAbsolutePath().normalize();
    this.fileName = fileName;
    this.mode = mode;
  }

  /** Creates the directory when it is missing; fails naming it when it cannot. */
  @Override
  public void start(FlowContext context) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new SluiceException(
          "Cannot create the output directory '"
              + directory
              + "' of the "
              + "file sink in flow '"
              + context.flowName()
              + "' ("
              + e
              + "); fix its 'directory' or "
              + "create it by hand",
          e);
    }
  }

  /** Writes the payload as the mode says and returns the message with {@code writtenPath} set. */
  @Override
  public Message process(Message message) throws IOException {
    Path target = target(message);
    Object payload = message.payload();
    switch (mode) {
      case OVERWRITE -> overwrite(target, payload);
      case APPEND -> WholeAppends.append(target, payload);
      case CREATE_NEW -> createNew(target, payload);
    }
    return message.withAttribute(WRITTEN_PATH, target.toString());
  }

  /** Blocks on the file system. */
  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return "file-write(" + directory + ")";
  }

  private Path target(Message message) {
    String name = fileName.render(message);
    String problem = null;
    if (name == null || name.isBlank()) {
      problem = "is empty";
    } else if (name.equals(".") || name.equals("..")) {
      problem = "names a directory, not a file";
    } else if (name.indexOf('/') >= 0
        || name.indexOf('\\') >= 0
        || name.contains(directory.getFileSystem().getSeparator())) {
      problem = "contains a path separator";
    } else if (name.indexOf('\0') >= 0) {
      problem = "contains a NUL character";
    }
    if (problem != null) {
      throw new SluiceException(
          "The file sink's fileName '"
              + fileName
              + "' rendered to '"
              + name
              + "', which "
              + problem
              + "; a file sink writes only into its directory '"
              + directory
              + "', so give it a plain file name");
    }
    return directory.resolve(name);
  }

  private void overwrite(Path target, Object payload) throws IOException {
    // Not Files.createTempFile: its files are owner-only (0600), and the rename would carry that
    // over to the result instead of the usual permissions.
    Path temp =
        directory.resolve(
            "."
                + target.getFileName()
                + "."
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36)
                + ".tmp");
    try {
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        PayloadWriter.write(channel, payload);
        // Forced before the rename, so that a crash cannot leave a renamed but empty file.
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void createNew(Path target, Object payload) throws IOException {
    try (FileChannel channel =
        FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      try {
        PayloadWriter.write(channel, payload);
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(target); // the file this call created, cut short
        throw e;
      }
    } catch (FileAlreadyExistsException e) {
      throw new SluiceException(
          "File '"
              + target
              + "' already exists and the file sink's mode "
              + "is CREATE_NEW; choose OVERWRITE or APPEND, or a fileName that differs per message",
          e);
    }
  }
}
