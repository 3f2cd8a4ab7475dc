package io.sluice.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
            "io.sluice.jobs..")
        .check(SLUICE);
  }

  @Test
  void storesSerializersAndHttpDependOnlyOnTheCore() {
    for (String[] module :
        new String[][] {
          {"io.sluice.jdbc..", "io.sluice.serializers..", "io.sluice.http.."},
          {"io.sluice.serializers..", "io.sluice.jdbc..", "io.sluice.http.."},
          {"io.sluice.http..", "io.sluice.jdbc..", "io.sluice.serializers.."}
        }) {
      noClasses()
          .that()
          .resideInAPackage(module[0])
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.sluice.config..",
              "io.sluice.cli..",
              "io.sluice.testkit..",
              "io.sluice.bench..",
              "io.sluice.jobs..",
              module[1],
              module[2])
          .check(SLUICE);
    }
  }

  @Test
  void theJobExecutorDependsOnlyOnTheCoreAndJdbc() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.jobs..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sluice.config..",
            "io.sluice.cli..",
            "io.sluice.testkit..",
            "io.sluice.bench..",
            "io.sluice.serializers..",
            "io.sluice.http..")
        .check(SLUICE);
  }

  @Test
  void theConfigurationDependsOnlyOnTheCoreAndHttp() {
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
            "io.sluice.jobs..")
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
