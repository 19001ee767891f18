package net.commoninternet.ccci.extensions;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures;
import org.apiguardian.api.API;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of ccci's main code, as a test: which package may use which, arrows only downward
 * (docs/architecture.md draws the same graph). A new wrong import fails here with the class and
 * the dependency that broke the rule.
 *
 * <pre>
 *   run                          the lifecycle, phase by phase
 *   tiers   results              the tiers; results.json, RUN SUMMARY, service logs
 *   deployment                   the typed live run the tiers get
 *   driver.swarm   driver.abra   the two drivers, found through ServiceLoader, never each other
 *   driver                       AppDriver and what every driver shares
 *   lock                         app-domain lock, lockfile, janitor
 *   swarm                        engine, events, convergence, teardown, probes, exec
 *   workspace                    run folder, ABRA_DIR, state files, fetch, set-up, naming, env
 *   lifetime   secrets           guards, parent death, children; console filter, masking
 *   api   spi   engine           the contracts and the engine, which knows no extension
 * </pre>
 */
class ArchitectureTest {

    private static final String ROOT = "net.commoninternet.ccci";
    private static final String EXT = ROOT + ".extensions";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    /** The allowed arrows between ccci's packages, main code only. */
    static Architectures.LayeredArchitecture layers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true)
                .layer("api").definedBy(ROOT + ".api")
                .layer("spi").definedBy(ROOT + ".spi")
                .layer("engine").definedBy(ROOT + ".engine..")
                .layer("run").definedBy(EXT + ".run..")
                .layer("tiers").definedBy(EXT + ".tiers..")
                .layer("results").definedBy(EXT + ".results..")
                .layer("deployment").definedBy(EXT + ".deployment..")
                .layer("driver.swarm").definedBy(EXT + ".driver.swarm..")
                .layer("driver.abra").definedBy(EXT + ".driver.abra..")
                .layer("driver").definedBy(EXT + ".driver")
                .layer("lock").definedBy(EXT + ".lock..")
                .layer("swarm").definedBy(EXT + ".swarm..")
                .layer("workspace").definedBy(EXT + ".workspace..")
                .layer("lifetime").definedBy(EXT + ".lifetime..")
                .layer("secrets").definedBy(EXT + ".secrets..")
                .layer("recipes").definedBy(ROOT + ".recipes..")

                .whereLayer("engine").mayNotBeAccessedByAnyLayer()
                .whereLayer("recipes").mayNotBeAccessedByAnyLayer()
                .whereLayer("run").mayNotBeAccessedByAnyLayer()
                .whereLayer("tiers").mayNotBeAccessedByAnyLayer()
                // Drivers are found through ServiceLoader: nothing names one, and neither names the other.
                .whereLayer("driver.swarm").mayNotBeAccessedByAnyLayer()
                .whereLayer("driver.abra").mayNotBeAccessedByAnyLayer()
                .whereLayer("results").mayOnlyBeAccessedByLayers("run")
                .whereLayer("deployment").mayOnlyBeAccessedByLayers("run", "tiers", "results")
                .whereLayer("driver").mayOnlyBeAccessedByLayers("run", "tiers", "deployment", "driver.swarm", "driver.abra")
                .whereLayer("lock").mayOnlyBeAccessedByLayers("run")
                .whereLayer("swarm").mayOnlyBeAccessedByLayers("run", "tiers", "results", "deployment", "driver.swarm",
                        "driver.abra", "driver", "lock")
                .whereLayer("workspace").mayOnlyBeAccessedByLayers("run", "tiers", "results", "deployment", "driver.swarm",
                        "driver.abra", "driver", "lock", "swarm")
                .whereLayer("lifetime").mayOnlyBeAccessedByLayers("run", "tiers", "results", "deployment", "driver.swarm",
                        "driver.abra", "driver", "lock", "swarm", "workspace")
                .whereLayer("secrets").mayOnlyBeAccessedByLayers("run", "results", "swarm")
                // What a maintainer writes against knows nothing of how runs are made.
                .whereLayer("api").mayNotAccessAnyLayer()
                .whereLayer("spi").mayOnlyAccessLayers("api")
                .whereLayer("recipes").mayOnlyAccessLayers("api");
    }

    @Test
    void packagesDependOnlyDownwards() {
        layers().check(main);
    }

    @Test
    void thereAreNoCyclesBetweenPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void onlyTheEngineReadsSystemProperties() {
        noClasses().that().resideOutsideOfPackage(ROOT + ".engine")
                .should().callMethod(System.class, "getProperty", String.class)
                .orShould().callMethod(System.class, "getProperty", String.class, String.class)
                .because("every key is read once, at discovery, through the engine's ConfigurationParameters (Constants)")
                .check(main);
    }

    @Test
    void publicTypesOfTheExtensionsSayTheyAreInternal() {
        classes().that().resideInAPackage(EXT + "..").and().arePublic().and().areTopLevelClasses()
                .should().beAnnotatedWith(API.class)
                .because("they are public only to cross packages: @API(status = INTERNAL) says so, as in JUnit")
                .check(main);
    }

    @Test
    void noMethodOrConstructorTakesMoreThanFiveParameters() {
        codeUnitsWithAtMostFiveParameters().check(main);
    }

    private static ArchRule codeUnitsWithAtMostFiveParameters() {
        return com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits()
                .that().areDeclaredInClassesThat().resideInAPackage(ROOT + "..")
                .should(new ArchCondition<JavaCodeUnit>("take at most five parameters") {
                    @Override
                    public void check(JavaCodeUnit unit, ConditionEvents events) {
                        if (unit.getModifiers().contains(JavaModifier.SYNTHETIC)) {
                            return; // a lambda's captured variables, not a signature anyone wrote
                        }
                        int count = unit.getRawParameterTypes().size();
                        events.add(new SimpleConditionEvent(unit, count <= 5,
                                unit.getFullName() + " takes " + count + " parameters"));
                    }
                });
    }

    /** The rules can fail: a deliberately wrong arrow (the engine using an extension) is caught. */
    @Test
    void theLayeringCatchesAWrongArrow() {
        JavaClasses withWrongArrow = new ClassFileImporter().importClasses(WrongArrow.class,
                net.commoninternet.ccci.extensions.run.RecipeCiRun.class);
        Architectures.LayeredArchitecture rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("probe").definedBy(EXT)
                .layer("run").definedBy(EXT + ".run..")
                .whereLayer("run").mayNotBeAccessedByAnyLayer();
        assertThat(rule.evaluate(withWrongArrow).hasViolation()).isTrue();
    }

    /** A class of the extensions' root package that points into {@code run}: what nothing may do. */
    static final class WrongArrow {
        Object lifecycle() {
            return new net.commoninternet.ccci.extensions.run.RecipeCiRun();
        }
    }
}
