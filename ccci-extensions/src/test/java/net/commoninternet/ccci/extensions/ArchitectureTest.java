package net.commoninternet.ccci.extensions;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.core.importer.Locations;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import net.commoninternet.ccci.engine.CcciTestEngine;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.run.RecipeCiRun;
import org.apiguardian.api.API;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The layering of ccci's main code, as a test: which package may use which, arrows only downward
 * (docs/architecture.md draws the same graph). Every class of both modules' main code is in exactly
 * one layer, and each layer is one package: a class in a package no layer names (a new package)
 * fails here, as does a layer that matches nothing, and so does a new wrong import, with the class
 * and the dependency that broke the rule. The rules check what they were given: the number of
 * classes imported is the number of class files the two modules built, and each rule is run once
 * against the real main code with a deliberately wrong class added (the fixtures, all in one folder:
 * src/test/architecture-fixtures).
 *
 * <pre>
 *   run                               the lifecycle, phase by phase
 *   tiers                             the tiers: api and spi only
 *   results                           results.json, report, RUN SUMMARY, service logs
 *   deployment                        the typed live run (the SPI's LiveRun)
 *   driver.swarm   driver.abra        the two drivers, found through ServiceLoader, never each other
 *   driver                            AppDriver and what every driver shares
 *   keep                              a failed run's app kept: the hand-over, the keeper, its shell
 *   lock                              app-domain lock and lease, janitor
 *   lint                              abra's lint rules and ccci's own, the README's metadata
 *   browser   backup   boundary       the app's pictures; backupbot's labels; gVisor and egress
 *   usage                             the run's disk, watched against its share
 *   probe                             HTTP probes, exec and shells in the app's containers
 *   swarm                             convergence, teardown, stack labels, service logs
 *   workspace                         run folder, ABRA_DIR, state files, the app's set-up
 *   policy                            what a recipe's compose may ask of the host
 *   recipe                            fetch, versions, upgrade plan, compose files, env file, naming
 *   docker                            the engine connection, its lists and streams
 *   guards   children   waits         lifetime guards; child processes; bounded waits
 *   secrets                           console filter, masking
 *   engine (and its rooms)            the JUnit engine, which knows no extension
 *   lifecycle                         the engine's internal contract with ccci's lifecycle
 *   spi   api                         the contracts
 * </pre>
 */
class ArchitectureTest {

    private static final String ROOT = "net.commoninternet.ccci";
    private static final String EXT = ROOT + ".extensions";

    /** A layer and the one package it is. */
    private record Layer(String name, String pkg) {
    }

    private static final List<Layer> LAYERS = List.of(
            new Layer("api", ROOT + ".api"),
            new Layer("spi", ROOT + ".spi"),
            new Layer("lifecycle", ROOT + ".lifecycle"),
            new Layer("engine", ROOT + ".engine"),
            new Layer("engine.discovery", ROOT + ".engine.discovery"),
            new Layer("engine.parallel", ROOT + ".engine.parallel"),
            new Layer("engine.descriptor", ROOT + ".engine.descriptor"),
            new Layer("engine.execution", ROOT + ".engine.execution"),
            new Layer("engine.extension", ROOT + ".engine.extension"),
            new Layer("engine.config", ROOT + ".engine.config"),
            new Layer("run", EXT + ".run"),
            new Layer("tiers", EXT + ".tiers"),
            new Layer("results", EXT + ".results"),
            new Layer("deployment", EXT + ".deployment"),
            new Layer("driver.swarm", EXT + ".driver.swarm"),
            new Layer("driver.abra", EXT + ".driver.abra"),
            new Layer("driver", EXT + ".driver"),
            new Layer("keep", EXT + ".keep"),
            new Layer("lock", EXT + ".lock"),
            new Layer("lint", EXT + ".lint"),
            new Layer("browser", EXT + ".browser"),
            new Layer("backup", EXT + ".backup"),
            new Layer("boundary", EXT + ".boundary"),
            new Layer("usage", EXT + ".usage"),
            new Layer("probe", EXT + ".probe"),
            new Layer("swarm", EXT + ".swarm"),
            new Layer("workspace", EXT + ".workspace"),
            new Layer("policy", EXT + ".policy"),
            new Layer("recipe", EXT + ".recipe"),
            new Layer("docker", EXT + ".docker"),
            new Layer("guards", EXT + ".guards"),
            new Layer("children", EXT + ".children"),
            new Layer("waits", EXT + ".waits"),
            new Layer("secrets", EXT + ".secrets"));

    /** The packages whose public types are contracts for others (EXPERIMENTAL); every other one's are INTERNAL. */
    private static final Set<String> PUBLIC_PACKAGES = Set.of(ROOT + ".api", ROOT + ".spi");
    /** The engine's public face: what a build names or configures. */
    private static final Set<String> PUBLIC_ENGINE_TYPES = Set.of(CcciTestEngine.class.getName(), Constants.class.getName());

    /** The deliberately wrong classes beside this test: an arrow from a tier, upwards, from the SPI, from the engine; a new package; a config read. */
    private static final List<String> FIXTURES = List.of(EXT + ".tiers.WrongArrowFromATier", EXT + ".guards.WrongArrowUpwards",
            ROOT + ".spi.WrongArrowFromTheSpi", ROOT + ".engine.WrongArrowFromTheEngine", EXT + ".brandnew.ClassInANewPackage",
            EXT + ".driver.ReadsTheEnvironment");

    private static JavaClasses main;
    /** The main classes and every fixture: what each rule must reject, and only for the fixtures. */
    private static JavaClasses withFixtures;

    @BeforeAll
    static void importMainClasses() throws ClassNotFoundException {
        main = mainWith();
        List<Class<?>> fixtures = new ArrayList<>();
        for (String fixture : FIXTURES) {
            fixtures.add(Class.forName(fixture));
        }
        withFixtures = mainWith(fixtures.toArray(Class<?>[]::new));
    }

    /** What {@code rule} says of the main code with the fixtures: each line must name a fixture. */
    private static List<String> violationsWithFixtures(ArchRule rule) {
        List<String> lines = rule.evaluate(withFixtures).getFailureReport().getDetails();
        assertThat(lines).as("violations of %s", rule.getDescription()).allMatch(l -> FIXTURES.stream().anyMatch(l::contains));
        return lines;
    }

    /**
     * The main classes of ccci-engine and ccci-extensions, read from where the two modules' classes
     * were loaded (their build folders or jars), and the given test classes (the fixtures) with them.
     */
    private static JavaClasses mainWith(Class<?>... fixtures) {
        List<Location> locations = new ArrayList<>(List.of(codeSource(CcciTestEngine.class), codeSource(RecipeCiRun.class)));
        Arrays.stream(fixtures).forEach(fixture -> locations.addAll(Locations.ofClass(fixture)));
        return new ClassFileImporter().importLocations(locations);
    }

    private static Location codeSource(Class<?> anchor) {
        return Location.of(anchor.getProtectionDomain().getCodeSource().getLocation());
    }

    /** The allowed arrows between ccci's packages, main code only; a class in no layer breaks it. */
    static Architectures.LayeredArchitecture layers() {
        Architectures.LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInAnyPackage(ROOT + "..");
        for (Layer layer : LAYERS) {
            architecture = architecture.layer(layer.name()).definedBy(layer.pkg());
        }
        String[] mechanisms = MECHANISMS.keySet().toArray(String[]::new);
        architecture = architecture
                // What a maintainer, a tier or an extension writes against knows nothing of how runs are made.
                .whereLayer("api").mayNotAccessAnyLayer()
                .whereLayer("spi").mayOnlyAccessLayers("api")
                .whereLayer("lifecycle").mayOnlyAccessLayers("api", "spi")
                .whereLayer("lifecycle").mayOnlyBeAccessedByLayers(concat(ENGINE, mechanisms))
                // The engine knows no extension; inside it, each room only uses the rooms below it.
                .whereLayer("engine").mayOnlyAccessLayers(concat("api", "spi", "lifecycle", ENGINE))
                .whereLayer("engine").mayNotBeAccessedByAnyLayer()
                .whereLayer("engine.discovery").mayOnlyAccessLayers("api", "spi", "lifecycle", "engine.parallel",
                        "engine.descriptor", "engine.execution", "engine.extension", "engine.config")
                .whereLayer("engine.discovery").mayOnlyBeAccessedByLayers("engine")
                .whereLayer("engine.parallel").mayOnlyAccessLayers("api", "spi", "lifecycle", "engine.descriptor",
                        "engine.config")
                .whereLayer("engine.parallel").mayOnlyBeAccessedByLayers("engine", "engine.discovery")
                .whereLayer("engine.descriptor").mayOnlyAccessLayers("api", "spi", "lifecycle", "engine.execution",
                        "engine.extension", "engine.config")
                .whereLayer("engine.descriptor").mayOnlyBeAccessedByLayers("engine", "engine.discovery", "engine.parallel")
                .whereLayer("engine.execution").mayOnlyAccessLayers("api", "spi", "lifecycle", "engine.extension",
                        "engine.config")
                .whereLayer("engine.execution").mayOnlyBeAccessedByLayers("engine", "engine.discovery", "engine.descriptor")
                .whereLayer("engine.extension").mayOnlyAccessLayers("api", "spi", "lifecycle", "engine.config")
                .whereLayer("engine.config").mayOnlyAccessLayers("api", "spi", "lifecycle")
                // Tiers see the run through the SPI alone.
                .whereLayer("tiers").mayOnlyAccessLayers("api", "spi");
        // Each mechanism is used only by the ones that name it here: arrows only downward.
        for (var mechanism : MECHANISMS.entrySet()) {
            String[] users = mechanism.getValue();
            architecture = users.length == 0 ? architecture.whereLayer(mechanism.getKey()).mayNotBeAccessedByAnyLayer()
                    : architecture.whereLayer(mechanism.getKey()).mayOnlyBeAccessedByLayers(users);
        }
        return architecture.ensureAllClassesAreContainedInArchitecture();
    }

    private static final String[] DRIVERS = {"driver", "driver.swarm", "driver.abra"};

    /**
     * ccci-extensions' packages, top to bottom, each with the packages that may use it (none: found
     * through ServiceLoader or the top). Drivers are found through ServiceLoader: nothing names one,
     * and neither names the other.
     */
    private static final Map<String, String[]> MECHANISMS = orderedMap(
            "run", new String[0],
            "tiers", new String[0],
            "results", new String[] {"run"},
            "deployment", new String[] {"run"},
            "driver.swarm", new String[0],
            "driver.abra", new String[0],
            "driver", new String[] {"run", "deployment", "driver.swarm", "driver.abra"},
            "keep", new String[] {"run"},
            "lock", new String[] {"run", "results", "keep"},
            "lint", concat("results", DRIVERS),
            "browser", new String[] {"run", "deployment"},
            "boundary", new String[] {"run"},
            "usage", new String[] {"run"},
            "backup", concat("run", "deployment", DRIVERS),
            "probe", concat("run", "deployment", DRIVERS, "browser", "backup"),
            "swarm", concat("run", "results", "deployment", DRIVERS, "keep", "lock", "browser", "backup", "probe", "usage"),
            "workspace", concat("run", "results", "deployment", DRIVERS, "lock"),
            "policy", concat("run", "deployment", DRIVERS, "lock", "swarm", "workspace"),
            "recipe", concat("run", "results", "deployment", DRIVERS, "keep", "lock", "lint", "browser", "probe", "swarm",
                    "workspace", "policy"),
            "docker", concat("run", "results", "deployment", DRIVERS, "keep", "lock", "browser", "boundary", "backup",
                    "probe", "swarm", "workspace", "policy", "recipe", "usage"),
            "guards", new String[] {"run", "keep"},
            "children", concat("run", "results", "deployment", DRIVERS, "keep", "lock", "browser", "boundary", "backup",
                    "probe", "swarm", "workspace", "policy", "recipe", "docker", "guards"),
            "waits", concat("run", "results", "deployment", DRIVERS, "lock", "browser", "boundary", "backup",
                    "probe", "swarm", "workspace", "policy", "recipe", "docker", "guards", "children", "usage"),
            "secrets", new String[] {"run", "results", "swarm", "keep"});

    private static Map<String, String[]> orderedMap(Object... pairs) {
        Map<String, String[]> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], (String[]) pairs[i + 1]);
        }
        return map;
    }

    /** The engine's rooms, root first. */
    private static final String[] ENGINE = {"engine", "engine.discovery", "engine.parallel", "engine.descriptor",
        "engine.execution", "engine.extension", "engine.config"};

    private static String[] concat(Object... layers) {
        return Arrays.stream(layers).flatMap(l -> l instanceof String[] many ? Arrays.stream(many) : Stream.of((String) l))
                .toArray(String[]::new);
    }

    @Test
    void theRulesSeeEveryMainClassOfBothModules() throws IOException, URISyntaxException {
        long engine = classFiles(CcciTestEngine.class);
        long extensions = classFiles(RecipeCiRun.class);

        assertThat(engine).as("class files of ccci-engine").isGreaterThan(50);
        assertThat(extensions).as("class files of ccci-extensions").isGreaterThan(100);
        assertThat(main.size()).as("classes imported").isEqualTo(engine + extensions);
    }

    /** The class files under {@code net/commoninternet/ccci/} where {@code anchor} was loaded from (a folder or a jar). */
    private static long classFiles(Class<?> anchor) throws IOException, URISyntaxException {
        Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        String root = ROOT.replace('.', '/') + "/";
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.walk(location.resolve(root))) {
                return files.filter(f -> f.toString().endsWith(".class")).count();
            }
        }
        try (JarFile jar = new JarFile(location.toFile())) {
            return jar.stream().filter(e -> e.getName().startsWith(root) && e.getName().endsWith(".class")).count();
        }
    }

    @Test
    void packagesDependOnlyDownwardsAndEveryClassIsInALayer() {
        layers().check(main);
    }

    /**
     * The real rule, given the real main code and the fixtures, rejects each wrong arrow (into any
     * package, from the contracts and the engine too) and the class in a package no layer names,
     * and nothing else.
     */
    @ParameterizedTest
    @ValueSource(strings = {EXT + ".tiers.WrongArrowFromATier", EXT + ".guards.WrongArrowUpwards",
            ROOT + ".spi.WrongArrowFromTheSpi", ROOT + ".engine.WrongArrowFromTheEngine",
            EXT + ".brandnew.ClassInANewPackage"})
    void theLayeringCatchesAWrongArrowIntoAnyPackageAndAClassInNoLayer(String wrong) {
        assertThat(violationsWithFixtures(layers())).as("violations naming %s", wrong).anyMatch(line -> line.contains(wrong));
    }

    @Test
    void thereAreNoCyclesBetweenPackages() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(main);
    }

    /** What reads the process's configuration: the environment, system properties, and the JDK's shortcuts to them. */
    private static final Set<String> CONFIGURATION_READS = Set.of("java.lang.System.getenv", "java.lang.System.getProperty",
            "java.lang.System.getProperties", "java.lang.Integer.getInteger", "java.lang.Long.getLong",
            "java.lang.Boolean.getBoolean");

    /**
     * Every key is read once, at discovery, by the engine; the one other reader of the environment
     * is {@link ChildEnvironment}, which passes the host's allowlisted tool variables on to children.
     */
    static ArchRule onlyTheEngineReadsConfiguration() {
        return noClasses().that().resideOutsideOfPackage(ROOT + ".engine..").and().doNotBelongToAnyOf(ChildEnvironment.class)
                .should().callMethodWhere(DescribedPredicate.describe("it reads the configuration (" + CONFIGURATION_READS + ")",
                        (JavaMethodCall call) -> CONFIGURATION_READS.contains(call.getTargetOwner().getName() + "." + call.getName())))
                .because("every key is read once, at discovery, through the engine's ConfigurationParameters (Constants)"
                        + " and its environment fallbacks (HostVariables)");
    }

    @Test
    void onlyTheEngineReadsConfigurationAndTheRuleSeesAGetenv() {
        onlyTheEngineReadsConfiguration().check(main);

        assertThat(violationsWithFixtures(onlyTheEngineReadsConfiguration())).hasSize(2)
                .anyMatch(l -> l.contains("System.getenv(java.lang.String)")).anyMatch(l -> l.contains("Integer.getInteger"));
    }

    /**
     * Every public top-level type and every package says its API status, and the status fits where
     * it is: the contracts' public types are EXPERIMENTAL, the engine's are INTERNAL but for the
     * engine itself and its keys, everything else's INTERNAL.
     */
    static ArchRule apiStatusFitsThePackage() {
        return classes().that().resideInAPackage(ROOT + "..").and().arePublic().and().areTopLevelClasses()
                .should(new ArchCondition<JavaClass>("say their @API status, the one their package gives") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        API.Status expected = PUBLIC_PACKAGES.contains(type.getPackageName())
                                || PUBLIC_ENGINE_TYPES.contains(type.getName()) ? API.Status.EXPERIMENTAL : API.Status.INTERNAL;
                        API.Status actual = type.isAnnotatedWith(API.class) ? type.getAnnotationOfType(API.class).status() : null;
                        events.add(new SimpleConditionEvent(type, actual == expected, type.getName() + " is "
                                + (actual == null ? "not annotated with @API" : "@API(" + actual + ")") + ", expected @API("
                                + expected + ")"));
                    }
                });
    }

    @Test
    void publicTypesSayTheirApiStatusAndItFitsTheirPackage() {
        apiStatusFitsThePackage().check(main);

        assertThat(violationsWithFixtures(apiStatusFitsThePackage())).hasSize(2)
                .anyMatch(l -> l.contains("ReadsTheEnvironment is not annotated with @API"))
                .anyMatch(l -> l.contains("ClassInANewPackage is not annotated with @API"));
    }

    @Test
    void everyPackageHasAPackageInfoWithTheStatusOfItsTypes() {
        for (Layer layer : LAYERS) {
            JavaPackage pkg = main.getPackage(layer.pkg());
            assertThat(pkg.tryGetPackageInfo()).as("package-info.java of %s", layer.pkg()).isPresent();
            API.Status expected = PUBLIC_PACKAGES.contains(layer.pkg()) || layer.name().equals("engine")
                    ? API.Status.EXPERIMENTAL : API.Status.INTERNAL;
            assertThat(pkg.getPackageInfo().isAnnotatedWith(API.class)).as("@API on %s", layer.pkg()).isTrue();
            assertThat(pkg.getPackageInfo().getAnnotationOfType(API.class).status()).as("status of %s", layer.pkg())
                    .isEqualTo(expected);
        }
    }

    /** Tiers depend on the contracts and the JDK only, and ask no object what it really is. */
    @Test
    void tiersSeeOnlyTheContractsAndMakeNoInstanceofCheck() {
        classes().that().resideInAPackage(EXT + ".tiers").should().onlyDependOnClassesThat().resideInAnyPackage("java..",
                "org.apiguardian..", ROOT + ".api", ROOT + ".spi", EXT + ".tiers").check(main);
        classes().that().resideInAPackage(EXT + ".tiers").should(new ArchCondition<JavaClass>("make no instanceof check") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                type.getCodeUnits().forEach(unit -> unit.getInstanceofChecks().forEach(check -> events.add(
                        SimpleConditionEvent.violated(check, unit.getFullName() + " checks instanceof " + check.getRawType().getName()
                                + " (line " + check.getLineNumber() + ")"))));
            }
        }).allowEmptyShould(false).check(main);
    }

    /**
     * A built-in check says its failure in the recipe's terms ({@code Words} in the tiers), never in
     * an assertion library's ("Expecting actual: ... not to be equal to: ...", a value's
     * {@code toString}): no main class of either module uses AssertJ, which stays the recipes' own
     * assertions' library.
     */
    static ArchRule noMainClassUsesAssertJ() {
        return noClasses().should().dependOnClassesThat().resideInAPackage("org.assertj..")
                .because("a maintainer reads a built-in check's failure, so it says what was expected and found in the recipe's"
                        + " terms, not AssertJ's phrasing");
    }

    @Test
    void noMainClassUsesAssertJAndTheRuleSeesOneThatDoes() {
        noMainClassUsesAssertJ().check(main);
        assertThat(noMainClassUsesAssertJ().evaluate(new ClassFileImporter().importClasses(ArchitectureTest.class))
                .hasViolation()).as("this test class asserts with AssertJ").isTrue();
    }

    @Test
    void noMethodOrConstructorTakesMoreThanFiveParameters() {
        codeUnitsWithAtMostFiveParameters().check(main);
    }

    private static ArchRule codeUnitsWithAtMostFiveParameters() {
        return codeUnits().that().areDeclaredInClassesThat().resideInAPackage(ROOT + "..")
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
}
