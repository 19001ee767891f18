package net.commoninternet.ccci.extensions.children;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.commoninternet.ccci.lifecycle.HostVariables;
import org.apiguardian.api.API;

/**
 * The environment a child of a run starts from, chosen by ccci: never the JVM's whole
 * environment, which under CI holds the CI's secrets ({@code DRONE_*}, tokens given to the step)
 * and the docker CLI interpolates every variable it is given into a recipe's compose file
 * ({@code image: img-${DRONE_TOKEN}} would name the token to a registry and print it in the log).
 *
 * <p>Invariant: a child sees only {@link #FROM_HOST} of ccci's own environment (what the host's
 * tools need to find themselves and the engine ccci talks to), the values its caller passes
 * (a recipe's deploy environment, git's identity, restic's repository) and the run's own
 * ({@code ABRA_DIR}, the state files), which win over the caller's. A recipe's values are never
 * a child's environment (its compose is interpolated with them in ccci's JVM,
 * {@code recipe.ComposeInterpolation}); an approved recipe's install steps get them without the
 * names that {@link #steersAChild}.
 *
 * <p>This is the one class outside the engine that reads the process's environment
 * ({@link #inherited}): only the names of {@link #FROM_HOST}, passed on, never read as
 * configuration (the engine reads that, once, at discovery). The names of the variables a run
 * gives its children are spelled here once.
 */
@API(status = API.Status.INTERNAL)
public final class ChildEnvironment {

    /** Where a child looks for binaries (and where ccci looks for the ones it runs). */
    public static final String PATH = "PATH";
    /** The engine the docker CLI children talk to: the run's own. */
    public static final String DOCKER_HOST = "DOCKER_HOST";
    /** The run's state files, for every child ({@code workspace.RunState}). */
    public static final String DEPLOYS_FILE = "CCCI_DEPLOYS_FILE";
    public static final String OPSTATE_FILE = "CCCI_OPSTATE_FILE";
    public static final String DEPS_FILE = "CCCI_DEPS_FILE";
    public static final String DEPSKIP_FILE = "CCCI_DEPSKIP_FILE";
    /** What an approved recipe's {@code install_steps.sh} is told: the operation, the app's URL, its env file. */
    public static final String OP = "CCCI_OP";
    public static final String BASE_URL = "CCCI_BASE_URL";
    public static final String ENV_FILE = "CCCI_ENV_FILE";

    /**
     * What a child gets of ccci's own environment: where binaries are, the user and locale, and
     * the engine docker-java talks to (so the docker CLI talks to the same one, TLS settings
     * included). Nothing else.
     */
    static final List<String> FROM_HOST = List.of(PATH, "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
            "TMPDIR", DOCKER_HOST, "DOCKER_TLS_VERIFY", "DOCKER_CERT_PATH");

    /**
     * The prefix of the host's test instrumentation (the concurrency suite's child shims): set by
     * whoever starts ccci on the host, passed on to every child, and never settable by a recipe.
     */
    static final String TEST_PREFIX = "CCCI_TEST_";

    /** A child's PATH when ccci itself has none. */
    static final String DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    /**
     * Names that change how a program runs rather than being a value for a compose file: which
     * binary or library it loads ({@code PATH}, {@code LD_PRELOAD}, {@code GCONV_PATH}), which
     * engine, config, credentials or proxy it uses ({@code DOCKER_HOST}, {@code HOME},
     * {@code GIT_CONFIG_*}, {@code HTTPS_PROXY}), what a shell runs first ({@code BASH_ENV}), and
     * the run's own variables. Checked by name, as written, case-sensitive except the proxies (Go
     * and curl read both spellings).
     */
    private static final Set<String> EXACT = Set.of("PATH", "HOME", "SHELL", "ENV", "BASH_ENV", "IFS", "CDPATH", "PS4",
            "PROMPT_COMMAND", "TMPDIR", "USER", "LOGNAME", "TERMINFO", "TERMINFO_DIRS", "GODEBUG", "GCONV_PATH", "LOCPATH",
            "NLSPATH", "HOSTALIASES", "RESOLV_HOST_CONF", "RES_OPTIONS", "LOCALDOMAIN", "SSL_CERT_FILE", "SSL_CERT_DIR",
            "CURL_CA_BUNDLE", "SSH_AUTH_SOCK", "SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "NODE_OPTIONS", "PERL5OPT", "PERL5LIB",
            "PYTHONPATH", "PYTHONSTARTUP", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
            HostVariables.ABRA_DIR, DEPLOYS_FILE, OPSTATE_FILE, DEPS_FILE, DEPSKIP_FILE, OP, BASE_URL, ENV_FILE);
    private static final List<String> PREFIXES = List.of(TEST_PREFIX, "LD_", "DOCKER_", "GIT_", "XDG_", "OTEL_", "RESTIC_", "BASH_FUNC_",
            "MALLOC_", "GLIBC_");
    private static final Set<String> PROXIES = Set.of("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "FTP_PROXY");

    private ChildEnvironment() {
    }

    /** Read once, when first asked for, never at class loading. */
    private static final class Host {
        static final Map<String, String> INHERITED = fromHost(System.getenv());
    }

    /** What every child of this process gets of its environment: {@link #fromHost} of it. */
    public static Map<String, String> inherited() {
        return Host.INHERITED;
    }

    /**
     * {@link #FROM_HOST} and the {@link #TEST_PREFIX} variables of {@code host} (ccci's own
     * environment), with a PATH even if ccci has none.
     */
    public static Map<String, String> fromHost(Map<String, String> host) {
        Map<String, String> chosen = new LinkedHashMap<>();
        for (String name : FROM_HOST) {
            String value = host.get(name);
            if (value != null && !value.isEmpty()) {
                chosen.put(name, value);
            }
        }
        host.forEach((name, value) -> {
            if (name.startsWith(TEST_PREFIX)) {
                chosen.put(name, value);
            }
        });
        chosen.putIfAbsent(PATH, DEFAULT_PATH);
        return Map.copyOf(chosen);
    }

    /**
     * Whether a variable named {@code name}, given to a child (the docker CLI, git, a shell),
     * would change how that child runs: a recipe's environment may carry values for its compose
     * file, never these.
     */
    public static boolean steersAChild(String name) {
        return EXACT.contains(name) || PROXIES.contains(name.toUpperCase(Locale.ROOT))
                || PREFIXES.stream().anyMatch(name::startsWith);
    }
}
