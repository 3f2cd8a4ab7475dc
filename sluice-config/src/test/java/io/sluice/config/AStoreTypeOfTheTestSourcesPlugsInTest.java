package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.config.builtin.CoreComponents;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A store type that only the test sources have ({@code scratch}: its component and its {@code
 * StorageFactory} registered in {@code plugin/META-INF/services}, kept off the other tests' class
 * path) plugs in as a module's would: its name and its key are in the schema, its setting is
 * checked by its factory and reported with path, value, rule and line, and an application keeps its
 * stores in it; neither the configuration reader nor the core names it.
 */
class AStoreTypeOfTheTestSourcesPlugsInTest {

  private static final ClassLoader PLUGIN = plugin();
  private static final SchemaValidation WITH_SCRATCH =
      new SchemaValidation(ComponentRegistry.load(PLUGIN));

  private static ClassLoader plugin() {
    URL plugin = AStoreTypeOfTheTestSourcesPlugsInTest.class.getResource("/plugin/");
    return new URLClassLoader(
        new URL[] {plugin}, AStoreTypeOfTheTestSourcesPlugsInTest.class.getClassLoader());
  }

  private static Configuration read(String yaml) {
    return ConfigLoader.read("app.yaml", yaml, Configs.BASE, PLUGIN, WITH_SCRATCH);
  }

  private static ConfigurationException refused(String yaml) {
    ConfigurationException e = catchThrowableOfType(ConfigurationException.class, () -> read(yaml));
    assertThat(e).as("refused").isNotNull();
    return e;
  }

  @Test
  void itsNameAndItsKeyAreInTheSchema() throws Exception {
    JsonNode store =
        new ObjectMapper()
            .readTree(WITH_SCRATCH.served())
            .at("/properties/sluice/properties/store");

    assertThat(store.at("/properties/type/enum"))
        .extracting(JsonNode::asText)
        .containsExactly("sqlite", "postgresql", "memory", "scratch");
    assertThat(store.at("/properties/maxStores/description").asText()).startsWith("Scratch:");
    JsonNode others =
        new ObjectMapper()
            .readTree(ConfigLoader.schema())
            .at("/properties/sluice/properties/store");
    assertThat(others.at("/properties/maxStores").isMissingNode())
        .as("in the other tests' schema")
        .isTrue();
  }

  @Test
  void aBadSettingIsReportedByItsFactoryWithItsPathValueRuleAndLine() {
    ConfigurationException e =
        refused(
            """
            sluice:
              store:
                type: scratch
                maxStores: 101
            flows: [ { name: bare } ]
            """);

    assertThat(e.problems())
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()), ConfigProblem::rule)
        .containsExactly(tuple("sluice.store.maxStores", "101", "must be at most 100"));
    assertThat(e.problems().getFirst().source()).isEqualTo("app.yaml:4:5");
  }

  @Test
  void itsSettingUnderAnotherTypeIsRefusedByThatTypesFactory() {
    ConfigurationException e =
        refused(
            """
            sluice:
              store:
                type: sqlite
                maxStores: 5
            flows: [ { name: bare } ]
            """);

    assertThat(e.problems())
        .extracting(ConfigProblem::path, ConfigProblem::rule, ConfigProblem::source)
        .containsExactly(
            tuple("sluice.store.maxStores", "is not a setting of a sqlite store", "app.yaml:4:5"));
  }

  @Test
  void anUnknownTypeIsReportedWithTheInstalledOnesAtItsLine() {
    ConfigurationException e =
        refused(
            """
            sluice:
              store:
                type: scratchy
            flows: [ { name: bare } ]
            """);

    assertThat(e.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("sluice.store.type");
              assertThat(p.source()).isEqualTo("app.yaml:3:5");
              assertThat(p.toString())
                  .contains("scratchy")
                  .contains("sqlite, postgresql, memory, scratch");
            });
  }

  @Test
  void theDefaultTypeNotInstalledIsReportedWithTheInstalledOnes() {
    SchemaValidation coreAlone =
        new SchemaValidation(new ComponentRegistry(new CoreComponents().components()));
    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () ->
                ConfigLoader.read(
                    "app.yaml", "flows: [ { name: bare } ]\n", Configs.BASE, PLUGIN, coreAlone));

    assertThat(e.problems())
        .extracting(ConfigProblem::path, ConfigProblem::value, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "sluice.store.type",
                "sqlite",
                "is the store type by default, and it is not installed: the module that provides"
                    + " it is not on the class path; installed store types: memory"));
  }

  @Test
  void anApplicationKeepsItsStoresInIt() throws Exception {
    Application.Builder builder =
        read("""
                sluice:
                  store: { type: scratch, maxStores: 3 }
                flows:
                  - name: keep
                    processors:
                      - store-put: { store: kept, key: "#[payload]" }
                """)
            .application();

    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(PLUGIN);
    try (Application application = builder.build()) {
      application.start();
      application.send("keep", Message.of("one")).get(10, TimeUnit.SECONDS);

      assertThat(application.storageConfig().settings()).containsEntry("maxStores", 3L);
      assertThat(application.storage().describe())
          .startsWith("scratch (")
          .endsWith("at most 3 stores)");
    } finally {
      thread.setContextClassLoader(before);
    }
  }
}
