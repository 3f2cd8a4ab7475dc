package io.sluice.core.file;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;

/**
 * STUB, being written: writes the payload (bytes, or text as UTF-8) to a file in a directory,
 * named by a template ({@code #[attributes.fileName]} by default).
 */
public final class FileWriteProcessor implements Processor {

  private final Path directory;
  private final Template fileName;
  private final WriteMode mode;

  /** Writes into {@code directory}, naming files by {@code fileName}, in {@code mode}. */
  public FileWriteProcessor(Path directory, Template fileName, WriteMode mode) {
    this.directory = directory;
    this.fileName = fileName;
    this.mode = mode;
  }

  @Override
  public Message process(Message message) {
    throw new UnsupportedOperationException(
        "file sink not written yet: " + directory + "/" + fileName + " " + mode);
  }
}
