package org.claimdesk;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.IoErrors;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.OwnerOnly;
import org.claimdesk.store.SchemaProgress;
import org.claimdesk.testing.BenchUser;
import org.claimdesk.testing.SqlOutsideStore;
import org.claimdesk.ui.ConsoleServices;
import org.claimdesk.ui.testing.StoreReachingViews;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/architecture.md: bench on top; ui and cli -> app -> delivery / store -> domain. The
 * last tests check that the two rules with exceptions still catch what they are meant to.
 */
@AnalyzeClasses(packages = "org.claimdesk", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    private static final String BENCH = "org.claimdesk.bench..";

    /**
     * What ui may use from store besides the composition root: query records, where the database is, the failure
     * type, the listener told of schema upgrades while the database opens, three helpers (JSON, owner-only files, a
     * file system failure in words).
     */
    static final Class<?>[] UI_MAY_USE_FROM_STORE = {ClaimQuery.class, OutboxQuery.class, DatabaseLocation.class,
        DatabaseException.class, SchemaProgress.class, Json.class, OwnerOnly.class, IoErrors.class};

    @ArchTest
    static final ArchRule nothingOutsideUiUsesJavaFx = noClasses()
            .that().resideOutsideOfPackages("org.claimdesk.ui..", "org.claimdesk.bench.ui..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..");

    @ArchTest
    static final ArchRule viewModelsDoNotUseScenes = noClasses()
            .that().haveSimpleNameEndingWith("ViewModel")
            .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..");

    @ArchTest
    static final ArchRule domainIsPureJava = noClasses()
            .that().resideInAPackage("org.claimdesk.domain..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.store..", "org.claimdesk.app..",
                    "org.claimdesk.delivery..", "org.claimdesk.ui..", "org.claimdesk.cli..", BENCH, "org.jdbi..",
                    "org.sqlite..", "com.fasterxml..", "java.net..", "java.sql..", "java.nio.file..", "javafx..");

    @ArchTest
    static final ArchRule storeDependsOnlyOnDomain = noClasses()
            .that().resideInAPackage("org.claimdesk.store..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.app..", "org.claimdesk.delivery..",
                    "org.claimdesk.ui..", "org.claimdesk.cli..", BENCH);

    @ArchTest
    static final ArchRule deliveryDoesNotReachUp = noClasses()
            .that().resideInAPackage("org.claimdesk.delivery..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.app..", "org.claimdesk.ui..",
                    "org.claimdesk.cli..", BENCH);

    @ArchTest
    static final ArchRule appDoesNotReachUp = noClasses()
            .that().resideInAPackage("org.claimdesk.app..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.ui..", "org.claimdesk.cli..", BENCH);

    @ArchTest
    static final ArchRule cliAndUiStayApart = noClasses()
            .that().resideInAPackage("org.claimdesk.cli..")
            .should().dependOnClassesThat().resideInAnyPackage("org.claimdesk.ui..");

    /** Benchmarks and training sit on top: the product never depends on them, except the launcher that adds their commands. */
    @ArchTest
    static final ArchRule onlyBenchAndTheLauncherUseBench = noClasses()
            .that().resideOutsideOfPackage(BENCH)
            .and().doNotHaveFullyQualifiedName(Launcher.class.getName())
            .should().dependOnClassesThat().resideInAPackage(BENCH);

    /** ui reaches the database only through the composition root; pages and view-models get use cases. */
    @ArchTest
    static final ArchRule uiReachesStoreOnlyThroughTheCompositionRoot = noClasses()
            .that().resideInAPackage("org.claimdesk.ui..")
            .and().doNotHaveFullyQualifiedName(ConsoleServices.class.getName())
            .should().dependOnClassesThat(resideInAPackage("org.claimdesk.store..")
                    .and(not(belongToAnyOf(UI_MAY_USE_FROM_STORE))));

    /** SQL lives in store: the layers above open transactions and hand the Jdbi handle to store methods. */
    @ArchTest
    static final ArchRule onlyStoreRunsSql = noClasses()
            .that().resideOutsideOfPackage("org.claimdesk.store..")
            .should().callMethodWhere(JavaCall.Predicates.target(HasOwner.Predicates.With.owner(
                    JavaClass.Predicates.assignableTo(Handle.class)))
                    .and(JavaCall.Predicates.target(HasName.Predicates.nameMatching(
                            "createQuery|createUpdate|execute|prepareBatch|createBatch|createScript|select|createCall"))))
            .orShould().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.sqlite..");

    private static final JavaClasses FIXTURES = new ClassFileImporter()
            .importClasses(StoreReachingViews.Forbidden.class, StoreReachingViews.Allowed.class, BenchUser.class,
                    SqlOutsideStore.class);

    @Test
    void theUiRuleFlagsADatabaseOutsideTheCompositionRootAndAllowsQueryRecords() {
        EvaluationResult result = uiReachesStoreOnlyThroughTheCompositionRoot.evaluate(FIXTURES);
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("StoreReachingViews$Forbidden").contains("Database"))
                .noneSatisfy(line -> assertThat(line).contains("StoreReachingViews$Allowed"));
    }

    @Test
    void theBenchRuleFlagsAProductClassUsingBench() {
        EvaluationResult result = onlyBenchAndTheLauncherUseBench.evaluate(FIXTURES);
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("BenchUser").contains("BenchCommand"));
    }

    @Test
    void theSqlRuleFlagsAQueryRunOutsideStore() {
        EvaluationResult result = onlyStoreRunsSql.evaluate(FIXTURES);
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("SqlOutsideStore").contains("createQuery"))
                .noneSatisfy(line -> assertThat(line).contains("BenchUser"));
    }

    /**
     * A record holding a whole tax id writes its own text (the tax id masked): the text Java writes for a record holds
     * every component, and a log line or a failure that prints one would keep the number.
     */
    @Test
    void everyRecordHoldingATaxIdWritesItsOwnText() {
        JavaClasses product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.claimdesk");
        java.util.List<String> holding = new java.util.ArrayList<>();
        java.util.List<String> printing = new java.util.ArrayList<>();
        for (JavaClass c : product) {
            Class<?> type = c.reflect();
            if (!type.isRecord() || java.util.Arrays.stream(type.getRecordComponents())
                    .noneMatch(rc -> rc.getName().toLowerCase(java.util.Locale.ROOT).endsWith("taxid"))) {
                continue;
            }
            holding.add(type.getName());
            try {
                type.getDeclaredMethod("toString");
            } catch (NoSuchMethodException e) {
                printing.add(type.getName());
            }
        }
        assertThat(holding).as("the records found").contains("org.claimdesk.store.NewClaim");
        assertThat(printing).isEmpty();
    }
}
