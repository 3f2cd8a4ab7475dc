package io.sluice.formats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlainPathsGiveWhatJexlGivesTest {

  private static final Message MESSAGE;

  static {
    Map<String, Object> order = new HashMap<>();
    order.put("id", 1042);
    order.put("note", null);
    order.put("items", List.of(Map.of("sku", "A-1", "odd key", 1), Map.of("sku", "B]7")));
    order.put("class", "gold");
    order.put("empty", "no");
    order.put("size", 3);
    MESSAGE =
        Message.of(Map.of("order", order, "text", "abc"), Map.of("fileName", "o.json"))
            .withVariable("order", order);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "#[payload.order.id]",
        "#[payload.order.items[0].sku]",
        "#[payload.order.items[1]['sku']]",
        "#[payload.order.items[0][\"odd key\"]]",
        "#[payload.order.items.size()]",
        "#[payload.order.size()]",
        "#[payload.order.class]",
        "#[payload.order.empty]",
        "#[payload.order.size]",
        "#[payload.order.note]",
        "#[vars.order.id]",
        "#[attributes.fileName]",
        "#[payload]",
        "order #[payload.order.id] of #[attributes.fileName]]",
        "#[ payload.order.id ]",
        "#[payload.order.items[5]]",
        "#[payload.order.missing]",
        "#[payload.text.size()]",
        "#[payload.order.note.x]",
        "#[payload.order.id.x]",
        "#[vars.nothing]"
      })
  void aPathTemplateEvaluatesAsItsJexlTemplate(String text) {
    Template jexl = Template.parse("t", text);
    PathTemplate paths = PathTemplate.of(jexl);
    assertThat(paths).as("a plain path").isNotNull();

    Object expected = valueOrError(() -> jexl.evaluate(MESSAGE));
    Object actual = valueOrError(() -> paths.evaluate(MESSAGE));

    assertThat(actual).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "#[payload.order.id + 1]",
        "#[payload.order.items[0].sku.toLowerCase()]",
        "#[vars.order.items[payload.order.id]]",
        "#[message.payload]",
        "#['#[' + payload]"
      })
  void anythingMoreThanAPathIsLeftToJexl(String text) {
    assertThat(PathTemplate.of(Template.parse("t", text))).isNull();
  }

  private static Object valueOrError(java.util.function.Supplier<Object> evaluation) {
    Throwable error = catchThrowable(evaluation::get);
    return error == null ? evaluation.get() : error.getClass() + ": " + error.getMessage();
  }
}
