package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EachFormatIsReadIntoPlainValuesTest {

  @Test
  @SuppressWarnings("unchecked")
  void jsonBecomesOrderedMapsListsAndTypedScalars() {
    Object value = ReadProcessor.of(Format.JSON).process(Documents.file("order.json")).payload();

    Map<String, Object> order = (Map<String, Object>) ((Map<String, Object>) value).get("order");
    assertThat(order).isInstanceOf(LinkedHashMap.class);
    assertThat(order.keySet()).containsExactly("id", "customer", "paid", "total", "note", "items");
    assertThat(order).containsEntry("id", 1042).containsEntry("paid", true);
    assertThat(order).containsEntry("total", 31.5).containsEntry("note", null);
    assertThat((List<Object>) order.get("items")).hasSize(2);
  }

  @Test
  void yamlReadsAsTheSameValuesAsJson() {
    Object json = ReadProcessor.of(Format.JSON).process(Documents.file("order.json")).payload();
    Object yaml = ReadProcessor.of(Format.YAML).process(Documents.file("order.yaml")).payload();

    assertThat(yaml).isEqualTo(json);
  }

  @Test
  @SuppressWarnings("unchecked")
  void xmlBecomesAMapOfTheRootsChildrenWithRepeatedElementsAsLists() {
    Map<String, Object> order =
        (Map<String, Object>)
            ReadProcessor.of(Format.XML).process(Documents.file("order.xml")).payload();

    assertThat(order).containsEntry("id", "1042").containsEntry("customer", "Ada Lovelace");
    assertThat(order.get("item"))
        .isEqualTo(
            List.of(Map.of("sku", "A-1", "quantity", "2"), Map.of("sku", "B-7", "quantity", "1")));
  }

  @Test
  void aStringAStreamAndAFilesPathReadAlike() throws Exception {
    ReadProcessor read = ReadProcessor.of(Format.JSON);
    Object fromBytes = read.process(Documents.file("order.json")).payload();

    assertThat(read.process(Message.of(Documents.text("order.json"))).payload())
        .isEqualTo(fromBytes);
    assertThat(
            read.process(Message.of(Files.newInputStream(Documents.path("order.json")))).payload())
        .isEqualTo(fromBytes);
    assertThat(read.process(Message.of(Documents.path("order.json"))).payload())
        .isEqualTo(fromBytes);
  }

  @Test
  void aTargetKeepsThePayloadAndSetsTheVariable() {
    ReadProcessor read =
        new ReadProcessor(ReadConfig.builder().format(Format.JSON).target("order").build());

    Message result = read.process(Message.of("{\"a\": [1, 2]}"));

    assertThat(result.payload()).isEqualTo("{\"a\": [1, 2]}");
    assertThat(result.variable("order")).isEqualTo(Map.of("a", List.of(1, 2)));
  }
}
