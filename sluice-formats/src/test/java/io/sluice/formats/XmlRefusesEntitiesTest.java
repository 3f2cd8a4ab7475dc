package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XmlRefusesEntitiesTest {

  @TempDir Path dir;

  @Test
  void anExternalEntityIsRefusedAndTheFileItNamesIsNeverRead() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "the-secret-text");
    String document = Documents.text("xxe.xml").replace("SECRET_URL", secret.toUri().toString());

    FormatException error =
        Documents.failure(() -> ReadProcessor.of(Format.XML).process(Message.of(document)));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.getMessage()).contains("DOCTYPE is refused").doesNotContain("the-secret-text");
    assertThat(error.line()).isEqualTo(2);
  }

  @Test
  void anExternalEntityToEtcPasswdIsRefused() {
    String document = Documents.text("xxe.xml").replace("SECRET_URL", "file:///etc/passwd");

    FormatException error =
        Documents.failure(() -> ReadProcessor.of(Format.XML).process(Message.of(document)));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.getMessage()).doesNotContain("root:");
  }

  @Test
  void theBillionLaughsAreRefusedBeforeAnyEntityExpands() {
    FormatException error =
        Documents.failure(
            () -> ReadProcessor.of(Format.XML).process(Documents.file("billion-laughs.xml")));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.getMessage()).contains("DOCTYPE is refused");
  }

  @Test
  void anUndeclaredEntityWithoutADoctypeIsRefusedToo() {
    FormatException error =
        Documents.failure(() -> ReadProcessor.of(Format.XML).process(Message.of("<a>&lol;</a>")));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.line()).isEqualTo(1);
  }

  @Test
  void thePredefinedEntitiesAndCharacterReferencesStillRead() {
    Object value =
        ReadProcessor.of(Format.XML)
            .process(Message.of("<a><b>fish &amp; chips &lt;&#233;&gt;</b></a>"))
            .payload();

    assertThat(value).isEqualTo(java.util.Map.of("b", "fish & chips <é>"));
  }
}
