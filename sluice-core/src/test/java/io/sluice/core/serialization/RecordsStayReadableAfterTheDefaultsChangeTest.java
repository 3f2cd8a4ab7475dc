package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A store that chose its own format reads the application's records and the reverse; every pair of
 * default serializer and codec is proved in sluice-serializers, where all of them are installed.
 */
class RecordsStayReadableAfterTheDefaultsChangeTest {

  @Test
  void aStoreThatChoseItsOwnFormatWritesWithItAndReadsEverything() {
    StoredValues application = Fixtures.storedValues("jdk", "none");
    StoredValues store = application.using("utf8", "gzip");
    byte[] record = store.write("hello");
    assertThat(store.peek(record).serializerId()).isEqualTo(200);
    assertThat(store.peek(record).codecId()).isEqualTo(2);
    assertThat(application.read(record)).isEqualTo("hello");
    assertThat(store.read(application.write("world"))).isEqualTo("world");
    byte[] named = application.write("named", "jdk", "deflate");
    assertThat(application.peek(named).codecId()).isEqualTo(1);
    assertThat(store.read(named)).isEqualTo("named");
  }
}
