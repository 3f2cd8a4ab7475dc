package io.sluice.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the module map of DESIGN.md honest: dependencies point one way, internals stay inside. */
class ModuleLayeringTest {

  static final JavaClasses SLUICE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.sluice");

  @Test
  void theCoreDependsOnNoOtherModule() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sluice.config..",
            "io.sluice.cli..",
            "io.sluice.testkit..",
            "io.sluice.bench..",
            "io.sluice.jdbc..",
            "io.sluice.serializers..",
            "io.sluice.http..",
            "io.sluice.jobs..",
            "io.sluice.batch..",
            "io.sluice.formats..",
            "io.sluice.db..")
        .check(SLUICE);
  }

  /** Each row: a module, then the modules beside it that it must not use. */
  @Test
  void storesSerializersHttpJobsAndBatchDependOnlyOnTheCoreAndJobsAndBatchOnJdbc() {
    for (String[] module :
        new String[][] {
          {
            "io.sluice.jdbc..",
            "io.sluice.serializers..",
            "io.sluice.http..",
            "io.sluice.jobs..",
            "io.sluice.batch.."
          },
          {
            "io.sluice.serializers..",
            "io.sluice.jdbc..",
            "io.sluice.http..",
            "io.sluice.jobs..",
            "io.sluice.batch.."
          },
          {
            "io.sluice.http..",
            "io.sluice.jdbc..",
            "io.sluice.serializers..",
            "io.sluice.jobs..",
            "io.sluice.batch.."
          },
          {"io.sluice.jobs..", "io.sluice.serializers..", "io.sluice.http..", "io.sluice.batch.."},
          // A batch run on a shared store claims under the job executor's node lease: the jobs'
          // API (LeaseHolder, NodeLease), nothing of their internals or configuration.
          {
            "io.sluice.batch..",
            "io.sluice.serializers..",
            "io.sluice.http..",
            "io.sluice.jobs.internal..",
            "io.sluice.jobs.config.."
          },
          {
            "io.sluice.formats..",
            "io.sluice.jdbc..",
            "io.sluice.serializers..",
            "io.sluice.http..",
            "io.sluice.jobs..",
            "io.sluice.batch..",
            "io.sluice.db.."
          },
          // The database connector may use batch's API (its query input is a BatchInput).
          {
            "io.sluice.db..",
            "io.sluice.jdbc..",
            "io.sluice.serializers..",
            "io.sluice.http..",
            "io.sluice.jobs..",
            "io.sluice.formats.."
          }
        }) {
      // Their components implement the configuration's SPI (io.sluice.config.spi): nothing else of
      // it, its reader (io.sluice.config) or the core's components (io.sluice.config.builtin).
      List<String> forbidden =
          new ArrayList<>(
              List.of(
                  "io.sluice.config",
                  "io.sluice.config.builtin..",
                  "io.sluice.cli..",
                  "io.sluice.testkit..",
                  "io.sluice.bench.."));
      forbidden.addAll(List.of(module).subList(1, module.length));
      noClasses()
          .that()
          .resideInAPackage(module[0])
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(forbidden.toArray(String[]::new))
          .check(SLUICE);
    }
  }

  /**
   * What components implement, and the core's own components, know nothing of the reader (and, as
   * all of io.sluice.config, no module but the core: the next rule).
   */
  @Test
  void theComponentSpiKnowsNothingOfTheReader() {
    noClasses()
        .that()
        .resideInAnyPackage("io.sluice.config.spi..", "io.sluice.config.builtin..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.config")
        .check(SLUICE);
    noClasses()
        .that()
        .resideInAPackage("io.sluice.config.spi..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.config.builtin..")
        .check(SLUICE);
  }

  @Test
  void theConfigurationDependsOnlyOnTheCoreAndItsSpi() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.config..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sluice.cli..",
            "io.sluice.testkit..",
            "io.sluice.bench..",
            "io.sluice.jdbc..",
            "io.sluice.serializers..",
            "io.sluice.http..",
            "io.sluice.jobs..",
            "io.sluice.batch..",
            "io.sluice.formats..",
            "io.sluice.db..")
        .check(SLUICE);
  }

  @Test
  void internalPackagesAreUsedOnlyInsideTheirModule() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.core..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.core.internal..")
        .check(SLUICE);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.config..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.config.internal..")
        .allowEmptyShould(true)
        .check(SLUICE);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.http..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.http.internal..")
        .check(SLUICE);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.jobs..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.jobs.internal..")
        .check(SLUICE);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.batch..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.batch.internal..")
        .check(SLUICE);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.formats..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.formats.internal..")
        .check(SLUICE);
    noClasses()
        .that()
        .resideOutsideOfPackage("io.sluice.db..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.db.internal..")
        .check(SLUICE);
  }

  @Test
  void serviceProviderInterfacesDoNotReachIntoTheRuntime() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core.spi..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.core.internal..")
        .check(SLUICE);
  }
}
