package io.sluice.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The core is the bottom of the module map: JDBC is sluice-jdbc's business and the job store's SPI
 * is sluice-jobs' ({@code io.sluice.jobs.spi}), so no class of the core names either.
 */
class CoreKnowsNoJobsNorJdbcTest {

  private static final JavaClasses CORE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.sluice.core");

  @Test
  void noClassOfTheCoreUsesJavaSqlOrJavaxSql() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..")
        .check(CORE);
  }

  @Test
  void noClassOfTheCoreUsesTheJobsModule() {
    noClasses()
        .that()
        .resideInAPackage("io.sluice.core..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.sluice.jobs..")
        .check(CORE);
  }
}
