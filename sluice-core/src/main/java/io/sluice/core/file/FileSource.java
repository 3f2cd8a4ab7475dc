package io.sluice.core.file;

import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;

/**
 * STUB, being written: polls a directory and hands each matching file to the flow (payload: the
 * file's bytes; attributes: fileName, path, size, lastModified). A file is deleted or moved only
 * after its flow finished it successfully; one that failed or was refused stays for the next
 * poll, so nothing is lost.
 */
public final class FileSource implements Source {

  private final FileSourceConfig config;

  /** A source polling as {@code config} says. */
  public FileSource(FileSourceConfig config) {
    this.config = config;
  }

  @Override
  public void start(SourceContext context) {
    throw new UnsupportedOperationException("file source not written yet: " + config);
  }

  @Override
  public void stop() {}
}
