package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.processor.JavaComponentProcessor;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class JavaComponentProcessorTest {

  /** Implements the SPI: used as it is. */
  public static final class Shout implements Processor {
    @Override
    public Message process(Message message) {
      return message.withPayload(message.payload(String.class).toUpperCase());
    }

    @Override
    public ProcessingType processingType() {
      return ProcessingType.CPU_LITE;
    }
  }

  /** A POJO whose one method takes the payload. */
  public static final class Greeter {
    public String greet(String name) {
      return "hello " + name;
    }
  }

  /** A POJO whose method takes the whole message. */
  public static final class Tagger {
    public Message tag(Message message) {
      return message.withVariable("tagged", true);
    }
  }

  /** A POJO with a void method. */
  public static final class Collector {
    static final List<Object> SEEN = new ArrayList<>();

    public void collect(Object payload) {
      SEEN.add(payload);
    }
  }

  /** Two candidate methods. */
  public static final class TwoWays {
    public String one(String s) {
      return s;
    }

    public String two(String s) {
      return s + s;
    }
  }

  /** A value-like POJO: its equals(Object) is no candidate. */
  public static final class WithEquals {
    public String trim(String s) {
      return s.trim();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof WithEquals;
    }

    @Override
    public int hashCode() {
      return 1;
    }
  }

  /** Implements a generic interface: the compiler's bridge method is no candidate. */
  public static final class Length implements Function<String, Integer> {
    @Override
    public Integer apply(String s) {
      return s.length();
    }
  }

  private static JavaComponentProcessor load(Class<?> type, String method) {
    return JavaComponentProcessor.load(
        "flows[0].processors[0]",
        type.getName(),
        method,
        null,
        JavaComponentProcessorTest.class.getClassLoader());
  }

  @Test
  void aProcessorImplementationIsUsedAsItIsWithItsOwnProcessingType() throws Exception {
    JavaComponentProcessor processor = load(Shout.class, null);
    assertThat(processor.process(Message.of("hi")).payload()).isEqualTo("HI");
    assertThat(processor.processingType()).isEqualTo(ProcessingType.CPU_LITE);
  }

  @Test
  void aPojoMethodTakingThePayloadReturnsTheNewPayloadAndIsTakenToBlock() throws Exception {
    JavaComponentProcessor processor = load(Greeter.class, null);
    Message out = processor.process(Message.of("ann").withVariable("v", 1));
    assertThat(out.payload()).isEqualTo("hello ann");
    assertThat(out.variable("v")).isEqualTo(1);
    assertThat(processor.processingType()).isEqualTo(ProcessingType.BLOCKING_IO);
  }

  @Test
  void aPojoMethodTakingTheMessageReturnsTheNewMessage() throws Exception {
    Message out = load(Tagger.class, null).process(Message.of("x"));
    assertThat(out.variable("tagged")).isEqualTo(true);
    assertThat(out.payload()).isEqualTo("x");
  }

  @Test
  void aVoidMethodLeavesTheMessageUnchanged() throws Exception {
    Message in = Message.of("kept");
    assertThat(load(Collector.class, null).process(in)).isSameAs(in);
    assertThat(Collector.SEEN).contains("kept");
  }

  @Test
  void aPayloadOfTheWrongTypeIsAClearError() {
    assertThatThrownBy(() -> load(Greeter.class, null).process(Message.of(42)))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining(
            "greet takes a java.lang.String but the payload is a java.lang.Integer");
  }

  @Test
  void ambiguousMethodsAreAConfigurationErrorListingThem() {
    assertThatThrownBy(() -> load(TwoWays.class, null))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("flows[0].processors[0].class")
        .hasMessageContaining("has 2 public one-argument methods")
        .hasMessageContaining("one(java.lang.String)")
        .hasMessageContaining("two(java.lang.String)");
  }

  @Test
  void namingTheMethodResolvesTheAmbiguity() throws Exception {
    assertThat(load(TwoWays.class, "two").process(Message.of("ab")).payload()).isEqualTo("abab");
  }

  @Test
  void overridingEqualsDoesNotMakeTheComponentAmbiguous() throws Exception {
    assertThat(load(WithEquals.class, null).process(Message.of(" x ")).payload()).isEqualTo("x");
  }

  @Test
  void implementingAGenericInterfaceDoesNotMakeTheComponentAmbiguous() throws Exception {
    assertThat(load(Length.class, null).process(Message.of("four")).payload()).isEqualTo(4);
  }

  @Test
  void aMissingClassIsAConfigurationErrorNamingTheClassAndTheClasspath() {
    assertThatThrownBy(
            () ->
                JavaComponentProcessor.load(
                    "flows[2].processors[0]",
                    "com.example.Missing",
                    null,
                    null,
                    getClass().getClassLoader()))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.path()).isEqualTo("flows[2].processors[0].class");
                          assertThat(p.value()).isEqualTo("com.example.Missing");
                          assertThat(p.rule())
                              .contains("could not be loaded")
                              .contains("searched the classpath")
                              .contains(System.getProperty("java.class.path"));
                        }));
  }
}
