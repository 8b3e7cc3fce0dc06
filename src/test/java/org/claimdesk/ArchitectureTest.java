package org.claimdesk;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The layering of DEVELOPERS.md: ui -> app -> delivery / store -> domain; cli beside ui. */
@AnalyzeClasses(packages = "org.claimdesk", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule nothingOutsideUiUsesJavaFx = noClasses()
            .that().resideOutsideOfPackages("org.claimdesk.ui..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..");

    @ArchTest
    static final ArchRule viewModelsDoNotUseScenes = noClasses()
            .that().haveSimpleNameEndingWith("ViewModel")
            .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule domainIsPureJava = noClasses()
            .that().resideInAPackage("org.claimdesk.domain..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.store..", "org.claimdesk.app..",
                    "org.claimdesk.delivery..", "org.claimdesk.ui..", "org.claimdesk.cli..", "org.jdbi..",
                    "org.sqlite..", "com.fasterxml..", "java.net..", "java.sql..", "java.nio.file..", "javafx..");

    @ArchTest
    static final ArchRule storeDependsOnlyOnDomain = noClasses()
            .that().resideInAPackage("org.claimdesk.store..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.app..", "org.claimdesk.delivery..",
                    "org.claimdesk.ui..", "org.claimdesk.cli..");

    @ArchTest
    static final ArchRule deliveryDoesNotReachUp = noClasses()
            .that().resideInAPackage("org.claimdesk.delivery..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.app..", "org.claimdesk.ui..",
                    "org.claimdesk.cli..");

    @ArchTest
    static final ArchRule appDoesNotReachUp = noClasses()
            .that().resideInAPackage("org.claimdesk.app..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.ui..", "org.claimdesk.cli..");

    @ArchTest
    static final ArchRule cliAndUiStayApart = noClasses()
            .that().resideInAPackage("org.claimdesk.cli..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.ui..");
}
