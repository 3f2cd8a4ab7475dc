package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import org.junit.jupiter.api.Test;

class ExpressionsReachFieldsAfterReadTest {

  private static Object evaluate(String expression, Message message) {
    return Expression.compile("test", expression).evaluate(message);
  }

  @Test
  void aJsonOrdersFirstSkuIsReachedByPath() {
    Message read = ReadProcessor.of(Format.JSON).process(Documents.file("order.json"));

    assertThat(evaluate("payload.order.items[0].sku", read)).isEqualTo("A-1");
    assertThat(evaluate("payload.order.items[1].quantity * 2", read)).isEqualTo(2);
    assertThat(evaluate("payload.order.items.size()", read)).isEqualTo(2);
    assertThat(evaluate("payload.order.paid && payload.order.total > 30", read)).isEqualTo(true);
  }

  @Test
  void xmlRepeatedElementsAreReachedByIndex() {
    Message read = ReadProcessor.of(Format.XML).process(Documents.file("order.xml"));

    assertThat(evaluate("payload.item[1].sku", read)).isEqualTo("B-7");
    assertThat(evaluate("payload.id", read)).isEqualTo("1042");
  }

  @Test
  void csvRowsAreReachedByIndexAndColumnName() {
    Message read = ReadProcessor.of(Format.CSV).process(Documents.file("items.csv"));

    assertThat(evaluate("payload[0].name", read)).isEqualTo("Bolt, small");
    assertThat(evaluate("payload[1]['name']", read)).isEqualTo("Nut \"hex\"");
  }

  @Test
  void aReadIntoAVariableIsReachedThroughVars() {
    ReadProcessor read =
        new ReadProcessor(ReadConfig.builder().format(Format.YAML).target("order").build());

    Message message = read.process(Documents.file("order.yaml"));

    assertThat(evaluate("vars.order.order.customer", message)).isEqualTo("Ada Lovelace");
  }
}
