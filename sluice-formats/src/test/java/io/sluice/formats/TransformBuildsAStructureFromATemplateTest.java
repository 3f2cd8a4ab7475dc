package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransformBuildsAStructureFromATemplateTest {

  private final Message order = ReadProcessor.of(Format.JSON).process(Documents.file("order.json"));

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void aLoneExpressionKeepsItsValuesTypeAndMixedTextBecomesText() {
    TransformProcessor transform =
        TransformProcessor.of(
            map(
                "id", "#[payload.order.id]",
                "items", "#[payload.order.items]",
                "label", "order #[payload.order.id] for #[payload.order.customer]",
                "source", "web",
                "priority", 3,
                "express", false,
                "gift", null));

    Object result = transform.process(order).payload();

    assertThat(result)
        .isEqualTo(
            map(
                "id",
                1042,
                "items",
                ((Map<?, ?>) ((Map<?, ?>) order.payload()).get("order")).get("items"),
                "label",
                "order 1042 for Ada Lovelace",
                "source",
                "web",
                "priority",
                3,
                "express",
                false,
                "gift",
                null));
    assertThat(List.<Object>copyOf(((Map<?, ?>) result).keySet()))
        .containsExactly("id", "items", "label", "source", "priority", "express", "gift");
  }

  @Test
  void nestedMapsAndListsAreBuiltAfreshForEachMessage() {
    TransformProcessor transform =
        TransformProcessor.of(
            map(
                "lines",
                List.of(
                    map("sku", "#[payload.order.items[0].sku]", "n", 1),
                    map("sku", "#[payload.order.items[1].sku]", "n", 2))));

    Object first = transform.process(order).payload();
    Object second = transform.process(order).payload();

    assertThat(first)
        .isEqualTo(map("lines", List.of(map("sku", "A-1", "n", 1), map("sku", "B-7", "n", 2))));
    assertThat(first).isEqualTo(second).isNotSameAs(second);
  }

  @Test
  void aListOrATextAloneIsATemplateToo() {
    assertThat(TransformProcessor.of(List.of("#[payload.order.id]", "x")).process(order).payload())
        .isEqualTo(List.of(1042, "x"));
    assertThat(TransformProcessor.of("#[payload.order.total * 2]").process(order).payload())
        .isEqualTo(63.0);
  }

  @Test
  void aTargetSetsAVariableAndKeepsThePayload() {
    TransformProcessor transform =
        TransformProcessor.of(
            "template", map("id", "#[payload.order.id]"), "summary", ProcessingType.CPU_LITE);

    Message result = transform.process(order);

    assertThat(result.payload()).isSameAs(order.payload());
    assertThat(result.variable("summary")).isEqualTo(map("id", 1042));
  }

  @Test
  void everyBadExpressionIsReportedAtOnceWithItsPlaceInTheTemplate() {
    Object template =
        map(
            "ok",
            "#[payload]",
            "order",
            map("id", "#[payload.(]", "lines", List.of("x", "#[unclosed")));

    assertThatThrownBy(() -> TransformProcessor.of(template))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .extracting(ConfigProblem::path)
                    .containsExactly("template.order.id", "template.order.lines[1]"));
  }
}
