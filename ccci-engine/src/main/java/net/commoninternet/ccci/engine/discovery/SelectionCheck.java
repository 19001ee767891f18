package net.commoninternet.ccci.engine.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.spi.Driver;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * {@code mvn test -Drecipe=...}'s selection judged in Maven's own JVM, before Surefire starts the
 * run's (recipe-suites runs it with exec:java): a misspelt recipe, a path for a name, a bad
 * {@code ccci.*} setting ends the build with its sentence, one line each, and exit 1. The same
 * problem found by discovery in Surefire's fork is a JUnit discovery error, which Surefire reports
 * as its own exception with some 40 lines of Maven's stack around the sentence.
 *
 * <p>The judging is discovery's own ({@link RecipeSelection} over {@link SettingsReader}), on
 * what the fork would see: the {@code configurationParameters} of its Surefire configuration (the
 * second argument), Maven's user properties (the command line's {@code -D}s, which Maven
 * makes system properties and Surefire hands the fork over its own; a system property whose value
 * is one of this JVM's own {@code -D} options, from MAVEN_OPTS or .mvn/jvm.config, is left out, as
 * the fork never gets it), {@code junit-platform.properties} on the class path, the
 * environment, the recipes folder recipe-suites gives the fork unless the command line names one,
 * and relative paths resolved in the fork's working directory (the module's folder, the first
 * argument). What only discovery judges (a recipe's own files) is still said there. Reads,
 * creates nothing.
 *
 * <p>With {@link #BLANK_ONLY} it judges only a recipe key given blank: ccci-engine runs it so before
 * its own tests, the first module whose tests load this engine (where a blank key fails the build,
 * as it must: {@code -Drecipe=} does not select the recipe-run profile, which needs a value).
 */
@API(status = API.Status.INTERNAL)
public final class SelectionCheck {

    private SelectionCheck() {
    }

    /** The argument that judges a blank recipe key only (a module that holds no recipes). */
    public static final String BLANK_ONLY = "--blank-only";

    /**
     * @param args the folder of the module whose Surefire fork runs the recipes (its working
     *             directory; the recipes are its {@code recipes} folder unless {@code ccci.recipes}
     *             is given), then, if given, the {@code configurationParameters} of its Surefire
     *             configuration (properties text, as Surefire reads them); or {@link #BLANK_ONLY}
     */
    public static void main(String[] args) throws IOException {
        boolean blankOnly = args.length == 0 || args[0].equals(BLANK_ONLY);
        if (blankOnly && args.length > 1 && Boolean.parseBoolean(args[1])) {
            return; // -Dmaven.test.skip=true: no tests, so no engine, judges anything in this build
        }
        Properties defaults = new Properties();
        try (InputStream file = SelectionCheck.class.getClassLoader().getResourceAsStream("junit-platform.properties")) {
            if (file != null) {
                defaults.load(file);
            }
        }
        Properties explicit = new Properties();
        if (!blankOnly && args.length > 1) {
            explicit.load(new StringReader(args[1]));
        }
        ConfigurationParameters config = forksView(explicit, System.getProperties(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), defaults);
        List<String> problems = blankOnly ? SettingsReader.fromProcess(config, Set.of()).blankRecipeKey()
                .map(key -> List.of(RecipeSelection.blank(key))).orElse(List.of()) : problems(config, Path.of(args[0]));
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("[ERROR] " + p));
            System.err.flush();
            // Maven's failure of a plugin would print its stack (exec:java logs what main throws): end the build here
            System.exit(1);
        }
    }

    /**
     * The configuration as Surefire's fork would get it: first its Surefire configuration's
     * {@code configurationParameters} ({@code explicit}); then Maven's user properties (the command
     * line's {@code -D}s, {@code .mvn/maven.config}), which Surefire hands the fork and Maven also
     * makes system properties, but not the {@code -D} options of Maven's own JVM ({@code MAVEN_OPTS},
     * {@code .mvn/jvm.config}, among {@code jvmArguments}): a system property whose value is that of
     * such an option is left out (a command line's {@code -D} of the same key and another value
     * replaced it, so it stays); then {@code defaults} ({@code junit-platform.properties}). Its keys
     * are the keys that have a value so.
     */
    static ConfigurationParameters forksView(Properties explicit, Properties system, List<String> jvmArguments,
            Properties defaults) {
        Map<String, String> jvmOptions = new HashMap<>();
        for (String argument : jvmArguments) {
            if (argument.startsWith("-D") && argument.length() > 2) {
                int equals = argument.indexOf('=');
                jvmOptions.put(equals < 0 ? argument.substring(2) : argument.substring(2, equals),
                        equals < 0 ? "" : argument.substring(equals + 1));
            }
        }
        Function<String, Optional<String>> values = key -> Optional.ofNullable(explicit.getProperty(key))
                .or(() -> Optional.ofNullable(system.getProperty(key)).filter(value -> !value.equals(jvmOptions.get(key))))
                .or(() -> Optional.ofNullable(defaults.getProperty(key)));
        return parameters(values, () -> {
            Set<String> keys = new TreeSet<>(explicit.stringPropertyNames());
            keys.addAll(system.stringPropertyNames());
            keys.addAll(defaults.stringPropertyNames());
            keys.removeIf(key -> values.apply(key).isEmpty());
            return keys;
        });
    }

    /**
     * The selection's problems under {@code config} and this process's environment, for a JVM working
     * in {@code workingDirectory}.
     */
    static List<String> problems(ConfigurationParameters config, Path workingDirectory) {
        Set<String> drivers = new TreeSet<>();
        ServiceLoader.load(Driver.class, SelectionCheck.class.getClassLoader()).forEach(d -> drivers.add(d.id()));
        return RecipeSelection.problems(SettingsReader.fromProcess(config, drivers, workingDirectory.toAbsolutePath()),
                config);
    }

    /** Configuration parameters of {@code values}, whose keys are {@code keys}. */
    static ConfigurationParameters parameters(Function<String, Optional<String>> values, Supplier<Set<String>> keys) {
        return new ConfigurationParameters() {
            @Override
            public Optional<String> get(String key) {
                return values.apply(key);
            }

            @Override
            public Optional<Boolean> getBoolean(String key) {
                return get(key).map(Boolean::parseBoolean);
            }

            @Override
            public Set<String> keySet() {
                return keys.get();
            }
        };
    }
}
