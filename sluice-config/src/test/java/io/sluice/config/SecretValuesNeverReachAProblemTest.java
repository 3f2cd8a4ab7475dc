package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.core.ConfigurationException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A value of a {@code ${secret:...}} placeholder is registered with {@link Secrets} and masked in
 * every problem of the file, whichever rule quotes it.
 */
class SecretValuesNeverReachAProblemTest {

  private static final String SECRET = "-Tr0ub4dor&3-horse-staple";

  @Test
  void aSecretValueThatBreaksARuleIsShownMasked() {
    String yaml =
        """
        flows:
          - name: ${secret:env:FLOW_NAME}
          - name: "prefix${secret:FLOW_NAME}"
        """;

    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () -> Configs.read(yaml, Configs.environment(Map.of("FLOW_NAME", SECRET))));

    assertThat(e.getMessage()).doesNotContain(SECRET).contains("value '******'");
    assertThat(e.problems())
        .allSatisfy(p -> assertThat(String.valueOf(p.value())).doesNotContain(SECRET));
    assertThat(e.getMessage()).contains("value 'prefix******'");
  }

  @Test
  void aSecretIsNeverTypedAndItsValueIsRegistered() {
    var app =
        Configs.read(
                """
                sluice:
                  store:
                    url: jdbc:postgresql://db/x
                    password: ${secret:PASSWORD}
                flows: [ { name: f } ]
                """,
                Configs.environment(Map.of("PASSWORD", "12345678901")))
            .application()
            .build();

    assertThat(app.storageConfig().password()).isEqualTo("12345678901");
    assertThat(Secrets.mask("password=12345678901;")).isEqualTo("password=******;");
  }

  @Test
  void noSecretRegisteredMasksNothingAndTheLongestSecretIsMaskedWhole() {
    assertThat(Secrets.mask("nothing secret here")).isEqualTo("nothing secret here");
    Secrets.register("overlap-secret-value");
    Secrets.register("overlap-secret-value-longer");
    Secrets.register("");

    assertThat(Secrets.mask("a overlap-secret-value-longer b")).isEqualTo("a ****** b");
  }

  @Test
  void aSecretsDefaultIsWrittenInTheFileSoItIsNotMasked() {
    var app =
        Configs.read(
                """
                flows:
                  - name: f
                    processors:
                      - logger: { message: "${secret:UNSET_KEY:default-Hh12-word}" }
                """,
                Configs.environment(Map.of()))
            .application()
            .build();

    assertThat(app.flows()).hasSize(1);
    assertThat(Secrets.mask("default-Hh12-word")).isEqualTo("default-Hh12-word");
  }
}
