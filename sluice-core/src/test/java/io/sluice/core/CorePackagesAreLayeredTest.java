package io.sluice.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The core's packages are layers, so the next change cannot tangle them again (issue 18): no two
 * packages use each other, however far round; the flow SPI ({@code spi}) holds what a flow's
 * components implement and are given, not the serializers' SPI ({@code serialization.spi}); the
 * store package is the storage's SPI and values, naming no implementation (the in-memory one is
 * found through {@code META-INF/services} like the others) and using no runtime; and the runtime
 * ({@code internal}) is used only by the application ({@code app}), which starts it.
 *
 * <p>The layers, from the bottom: {@code io.sluice.core} (messages, errors, strategies, profiles);
 * {@code expression}, {@code logging}, {@code serialization.spi}, {@code serialization}, {@code
 * store}, {@code store.memory}, {@code vm.queue}; {@code spi}; {@code flow} and the connectors
 * ({@code processor}, {@code file}, {@code scheduler}, {@code vm}); {@code internal}; {@code app}.
 */
class CorePackagesAreLayeredTest {

  private static final JavaClasses CORE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.sluice.core");

  @Test
  void noPackageOfTheCoreIsInACycle() {
    slices().matching("io.sluice.(**)").should().beFreeOfCycles().check(CORE);
  }

  @Test
  void theFlowSpiIsAboutFlowsOnly() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core.spi")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sluice.core.serialization.spi..",
            "io.sluice.core.internal..",
            "io.sluice.core.flow..",
            "io.sluice.core.app..")
        .check(CORE);
  }

  @Test
  void theSerializersSpiNeedsNothingButTheCoresValues() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core.serialization.spi")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sluice.core.serialization",
            "io.sluice.core.spi..",
            "io.sluice.core.store..",
            "io.sluice.core.internal..")
        .check(CORE);
  }

  @Test
  void theStorePackageIsTheStoragesSpiAndValuesAndUsesNoRuntime() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core.store")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.sluice.core.store.memory..",
            "io.sluice.core.internal..",
            "io.sluice.core.spi..",
            "io.sluice.core.vm..",
            "io.sluice.core.flow..",
            "io.sluice.core.app..")
        .check(CORE);
  }

  @Test
  void onlyTheApplicationUsesTheRuntime() {
    noClasses()
        .that()
        .resideOutsideOfPackages("io.sluice.core.internal..", "io.sluice.core.app..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.core.internal..")
        .check(CORE);
  }
}
