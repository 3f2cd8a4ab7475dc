package io.sluice.core.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.Message;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A path or a comparison evaluated without JEXL gives what JEXL gives, value or error, for every
 * kind of value a path may meet: present and missing keys, nulls, numbers of several types, texts,
 * lists in and out of range, and keys that are a map's bean properties.
 */
class ShortcutsGiveWhatJexlGivesTest {

  private static final List<Message> MESSAGES = messages();

  private static List<Message> messages() {
    Map<String, Object> order = new HashMap<>();
    order.put("country", "FR");
    order.put("count", 3);
    order.put("big", 3L);
    order.put("ratio", 0.5);
    order.put("price", new BigDecimal("3.0"));
    order.put("none", null);
    order.put("flag", true);
    order.put("digits", "3");
    order.put("items", List.of(Map.of("sku", "A-1"), Map.of("sku", "B-2")));
    order.put("empty", "not the map's isEmpty");
    order.put("class", "gold");
    order.put("size", 3);
    order.put("odd", List.of(Map.of("sku", "A-1", "odd key", 1), Map.of("sku", "B]7")));
    return List.of(
        Message.of(Map.of("order", order)).withVariable("count", 3).withVariable("name", "ada"),
        Message.of(3),
        Message.of("3"),
        Message.of(null),
        Message.of(List.of(1, 2)),
        Message.of(Map.of()).withVariable("count", 7L));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "payload",
        "payload.order.country",
        "payload.order.items[0].sku",
        "payload.order.items[5].sku",
        "payload.order['country']",
        "payload.order.items.size()",
        "payload.order.empty",
        "payload.order.missing",
        "payload.order.none",
        "payload.size()",
        "vars.count",
        "vars['name']",
        "attributes.fileName",
        "payload == 3",
        "payload == '3'",
        "payload != 3",
        "payload == null",
        "payload.order.country == 'FR'",
        "payload.order.country != \"DE\"",
        "payload.order.count == 3",
        "payload.order.big == 3",
        "payload.order.ratio == 0",
        "payload.order.price == 3",
        "payload.order.digits == 3",
        "payload.order.none == null",
        "payload.order.flag == true",
        "payload.order.missing == 'x'",
        "payload.order.count > 2",
        "payload.order.count <= -1",
        "payload.order.country > 'A'",
        "vars.count >= 7",
        "3 == payload",
        "'FR' == payload.order.country",
        "payload.order.items[1].sku == 'B-2'",
        "payload.order.class",
        "payload.order.size",
        "payload.order.size()",
        "payload.order.odd[0][\"odd key\"]",
        "payload.order.odd[1]['sku']",
        "payload.order.none.x",
        "payload.order.count.x",
        "payload.order.country.size()",
        "vars.nothing"
      })
  void theShortcutAgreesWithJexl(String text) {
    Expression expression = Expression.compile("test", text);
    for (Message message : MESSAGES) {
      Object jexl;
      Throwable jexlError = null;
      try {
        jexl = expression.evaluateWithJexl(message);
      } catch (RuntimeException e) {
        jexl = null;
        jexlError = e;
      }
      Object fast;
      Throwable fastError = catchThrowable(() -> expression.evaluate(message));
      fast = fastError == null ? expression.evaluate(message) : null;
      assertThat(fastError == null)
          .as("%s on %s: error %s, JEXL's %s", text, message.payload(), fastError, jexlError)
          .isEqualTo(jexlError == null);
      if (jexlError == null) {
        assertThat(fast).as("%s on %s", text, message.payload()).isEqualTo(jexl);
      } else {
        assertThat(fastError).hasMessage(jexlError.getMessage());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "payload.order.country == 'FR'",
        "vars.count >= 7",
        "payload.order.items[0].sku",
        "payload == 3"
      })
  void theCommonFormsHaveAShortcut(String text) {
    assertThat(Expression.compile("test", text).hasShortcut()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"payload.toUpperCase()", "vars.a + 1", "payload == 3 && vars.x", "1 == 1"})
  void otherFormsGoToJexl(String text) {
    assertThat(Expression.compile("test", text).hasShortcut()).isFalse();
  }
}
