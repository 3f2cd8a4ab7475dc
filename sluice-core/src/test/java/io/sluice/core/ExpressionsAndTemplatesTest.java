package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.expression.Expression;
import io.sluice.core.expression.Template;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpressionsAndTemplatesTest {

  private final Message message =
      Message.of(List.of(1, 2, 3), Map.of("fileName", "a.csv")).withVariable("count", 7);

  @Test
  void aTemplateReplacesEveryExpressionWithItsText() {
    Template template = Template.parse("t", "copied #[attributes.fileName] (#[vars.count] rows)");
    assertThat(template.evaluate(message)).isEqualTo("copied a.csv (7 rows)");
    assertThat(template.isDynamic()).isTrue();
  }

  @Test
  void aLoneExpressionKeepsItsValuesType() {
    assertThat(Template.parse("t", "#[payload.size()]").evaluate(message)).isEqualTo(3);
    assertThat(Template.parse("t", "#[payload]").evaluate(message)).isEqualTo(List.of(1, 2, 3));
  }

  @Test
  void plainTextStaysAsItIsAndBracketsInsideAnExpressionDoNotCloseIt() {
    assertThat(Template.parse("t", "no expressions").evaluate(message)).isEqualTo("no expressions");
    assertThat(Template.parse("t", "#[payload[1]]").evaluate(message)).isEqualTo(2);
    assertThat(Template.parse("t", "#['a]b']").evaluate(message)).isEqualTo("a]b");
  }

  @Test
  void aSyntaxErrorIsAConfigurationErrorNamingThePath() {
    assertThatThrownBy(() -> Template.parse("flows[0].processors[1].value", "x #[payload.(]"))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.path()).isEqualTo("flows[0].processors[1].value");
                          assertThat(p.rule()).startsWith("does not compile");
                        }));
    assertThatThrownBy(() -> Template.parse("some.path", "x #[payload"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("some.path")
        .hasMessageContaining("never closed");
  }

  @Test
  void aFailureWhileEvaluatingNamesTheExpression() {
    Expression expression = Expression.compile("when", "vars.count.nothing()");
    assertThatThrownBy(() -> expression.evaluate(message))
        .isInstanceOf(Expression.ExpressionException.class)
        .hasMessageContaining("Expression 'vars.count.nothing()' failed");
  }

  @Test
  void aConditionThatIsNotBooleanIsAClearError() {
    Expression expression = Expression.compile("when", "vars.count");
    assertThatThrownBy(() -> expression.test(message))
        .isInstanceOf(Expression.ExpressionException.class)
        .hasMessageContaining("'vars.count'")
        .hasMessageContaining("true or false");
  }
}
