package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.Secrets;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * A secret holding a line end (a PEM key read with {@code ${secret:file:...}}) printed with println
 * is masked whole, not written out in two halves at the line end.
 */
class MaskingWriterMasksASecretHoldingALineEndTest {

  @Test
  void aSecretThatSpansLinesIsMaskedWhole() {
    String secret = "-----BEGIN KEY-----\nTUFTS0VE-only-in-this-test\n-----END KEY-----";
    Secrets.register(secret);
    StringWriter out = new StringWriter();
    PrintWriter printed = MaskingWriter.printWriter(out);

    printed.println("key: " + secret);
    printed.print("and then ");
    printed.println("more");

    assertThat(out.toString()).doesNotContain("TUFTS0VE").contains("key: ******");
    assertThat(out.toString()).endsWith("and then more" + System.lineSeparator());
  }
}
