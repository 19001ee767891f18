package net.commoninternet.ccci.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.helpers.Orphanage;

/**
 * A real {@code mvn test} of the recipe-suites module, started as a child process from the
 * repository root, exactly as a user or Drone runs it. Its output goes to a file so a test can
 * read it while the run is still going.
 */
public final class MavenRun {

    public static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private static final Pattern STARTED = Pattern.compile(
            "== ccci run (\\S+) \\(pid (\\d+)\\): .* app (\\S+), ABRA_DIR (\\S+) ==");

    /** What a run says when it starts: {@code == ccci run <id> (pid <n>): ..., app <domain>, ABRA_DIR <dir> ==}. */
    public record Started(String runId, long pid, String domain, Path abraDir) {
        public static Started parse(String line) {
            Matcher m = STARTED.matcher(line);
            if (!m.find()) {
                throw new AssertionError("not a run start line: " + line);
            }
            return new Started(m.group(1), Long.parseLong(m.group(2)), m.group(3), Path.of(m.group(4)));
        }

        public String stack() {
            return AppNaming.stackName(domain);
        }
    }

    public final Process process;
    final Path log;
    private final Path reports;

    private MavenRun(Process process, Path log, Path reports) {
        this.process = process;
        this.log = log;
        this.reports = reports;
    }

    /** The run's Surefire and Open Test Reporting XML (and their attachments): a folder of its own beside its log. */
    public Path reports() {
        return reports;
    }

    /**
     * Starts mvn in a session of its own (setsid), so its whole process group (Maven and the
     * Surefire fork) can be signalled at once, as Drone's wrapper does.
     */
    public static MavenRun start(Path log, Map<String, String> env, String... properties) throws IOException {
        Path reports = log.resolveSibling(log.getFileName() + ".reports");
        List<String> command = new ArrayList<>(List.of("setsid", "mvn", "-B", "-q", "test", "-pl", "recipe-suites", "-am",
                "-Dreports.dir=" + reports, bootFolder()));
        command.addAll(List.of(properties));
        return new MavenRun(inNamespace(new ProcessBuilder(command), env).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start(), log, reports);
    }

    /**
     * The README's main job itself, {@code mvn test -Drecipe=...} from the repository root with the
     * project's Maven defaults ({@code .mvn/maven.config}) and nothing else of the tests' own
     * ({@code -q}, {@code -pl}): what a user's console shows.
     */
    public static MavenRun startAsTheReadmeSays(Path log, Map<String, String> env, String... properties) throws IOException {
        List<String> command = new ArrayList<>(List.of("setsid", "mvn", "test"));
        command.addAll(List.of(properties));
        return new MavenRun(inNamespace(new ProcessBuilder(command), env).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start(), log, ROOT.resolve("recipe-suites/target/surefire-reports"));
    }

    /**
     * A Drone step about to be cancelled: {@code setsid mvn test -pl recipe-suites -am <properties>}
     * under an {@link Orphanage} (which adopts the fork once Maven dies and reports how each process
     * of the group ended), runs and abra dirs in {@code sandbox}, its console kept in {@code logFile}
     * ({@code -Dccci.log-file}), every run held inside its deploy by the docker shim's gate
     * ({@link ChildShims}), which is never opened; the shims log to {@code sandbox/children.log}.
     */
    public static Helper startHeldInDeploy(Helpers helpers, Path sandbox, Path logFile, String... properties)
            throws IOException, InterruptedException {
        return startHeldInDeploy(helpers, sandbox, logFile, 1, properties);
    }

    /** As {@link #startHeldInDeploy(Helpers, Path, Path, String...)}, held in its {@code deploy}-th deploy (2: the upgrade's). */
    public static Helper startHeldInDeploy(Helpers helpers, Path sandbox, Path logFile, int deploy, String... properties)
            throws IOException, InterruptedException {
        Map<String, String> env = new HashMap<>(ChildShims.install(sandbox.resolve("bin"),
                sandbox.resolve("children.log")));
        env.put(ChildShims.GATE, sandbox.resolve("never-opened").toString());
        env.put(ChildShims.GATE_AT, Integer.toString(deploy));
        env.put("CCCI_RUNS_DIR", sandbox.resolve("runs").toString());
        env.put("ABRA_DIR", sandbox.resolve("abra").toString());
        ForkNamespace.env().forEach(env::putIfAbsent);
        besideOtherBuilds(env);
        List<String> mvn = new ArrayList<>(List.of("setsid", "mvn", "-B", "-q", "-f", ROOT.resolve("pom.xml").toString(),
                "test", "-pl", "recipe-suites", "-am", "-Dccci.log-file=" + logFile, "-Dreports.dir=" + sandbox.resolve("reports"),
                bootFolder()));
        mvn.addAll(List.of(properties));
        return helpers.start(Helper.java(Orphanage.class, mvn.toArray(String[]::new)), env);
    }

    /**
     * The app lock directory of the runs this fork starts (their namespace's, {@link ForkNamespace}):
     * runs that deploy use it, so every run of the namespace agrees on which apps are live.
     */
    public static final Path LOCK_DIR = ForkNamespace.LOCK_DIR;

    private static final AtomicInteger RUNS = new AtomicInteger();

    /**
     * A Surefire boot folder of the run's own under recipe-suites/target ({@code tempDir}, default
     * {@code surefire}): the suite's forks start runs of one checkout at once, and a Maven run that
     * ends deletes its boot folder, the booter jar of another run's fork starting from it included.
     */
    private static String bootFolder() {
        return "-DtempDir=surefire-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet();
    }

    /** From the repository root, in this fork's namespace unless {@code env} says otherwise, then {@code env}. */
    private static ProcessBuilder inNamespace(ProcessBuilder builder, Map<String, String> env) {
        builder.directory(ROOT.toFile()).environment().putAll(ForkNamespace.env());
        builder.environment().putAll(env);
        besideOtherBuilds(builder.environment());
        return builder;
    }

    /**
     * Lets a Maven build of this tree run beside others (the suite's forks each start runs, a
     * bench two at once): maven-compiler-plugin's incremental mode rewrites its file lists
     * ({@code target/maven-status}) on every build, even one with nothing to compile, and a build
     * that reads them half-written recompiles the whole module, deleting the classes a running
     * build's JVM still loads (seen as a {@code NoClassDefFoundError} in a run and as a missing
     * {@code TestEngine} provider; three no-op builds at once recompiled ccci-engine in one of four
     * tries). Without it the plugin compiles only sources newer than their classes: none, in the
     * tree the outer build compiled. Through {@code MAVEN_OPTS}, so the README's command line stays
     * as a user types it; added to the options {@code environment} has, else to this JVM's own.
     */
    public static void besideOtherBuilds(Map<String, String> environment) {
        String opts = environment.getOrDefault("MAVEN_OPTS", System.getenv().getOrDefault("MAVEN_OPTS", ""));
        environment.put("MAVEN_OPTS", (opts + " " + NO_INCREMENTAL_COMPILE).strip());
    }

    private static final String NO_INCREMENTAL_COMPILE = "-Dmaven.compiler.useIncrementalCompilation=false";

    /**
     * The lock folder of the namespace {@code domain} is in: this fork's for the runs it starts
     * ({@link ForkNamespace}), the host's default for a run in the test's own JVM (which keeps the
     * default namespace, as {@code ThirdPartyTierTest}'s does).
     */
    static Path lockDirOf(String domain) {
        return domain.endsWith("." + ForkNamespace.SUFFIX) ? LOCK_DIR : ForkNamespace.DEFAULT_LOCK_DIR;
    }

    /**
     * Leaves nothing of a test's run behind, whatever happened: the stack (if a failed run left
     * one) and the lockfile. Only when no live run holds the domain's lock, so another run of the
     * same domain is never touched.
     */
    public static void removeLeftovers(String domain) throws Exception {
        LockProbe.reapIfUnheld(AppDomainLock.path(lockDirOf(domain), domain), () -> {
            try (DockerEngine docker = DockerEngine.connect()) {
                StackTeardown teardown = new StackTeardown(docker.client());
                if (!teardown.leftovers(AppNaming.stackName(domain)).isEmpty()) {
                    teardown.teardown(AppNaming.stackName(domain));
                }
            }
        });
    }

    public int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            throw new AssertionError("mvn did not finish within " + timeout + "; output in " + log);
        }
        return process.exitValue();
    }

    /** Kills a run still going (its descendants first), for a test's finally; never throws. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.onExit().join();
    }

    /** SIGKILL to the whole process group, then waits until every process of it is gone. */
    public void killGroup() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).start().waitFor();
        process.waitFor();
        while (new ProcessBuilder("kill", "-0", "--", "-" + process.pid()).start().waitFor() == 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    public String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** The first line of the run's output containing {@code fragment}, waiting while the run may still print it. */
    public String awaitLine(String fragment, Duration timeout) throws IOException {
        return awaitLine(log, fragment, timeout, process::isAlive);
    }

    /**
     * The first line of {@code file} containing {@code fragment}, waiting for it as long as
     * {@code writing} holds and {@code timeout} allows (the file is re-read: it is observed, not
     * timed).
     */
    public static String awaitLine(Path file, String fragment, Duration timeout, BooleanSupplier writing) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean stillWriting = writing.getAsBoolean();
            if (Files.exists(file)) {
                Optional<String> line = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .filter(l -> l.contains(fragment)).findFirst();
                if (line.isPresent()) {
                    return line.get();
                }
            }
            if (!stillWriting || System.nanoTime() > deadline) {
                throw new AssertionError((stillWriting ? "no" : "writer gone and no") + " line with '" + fragment
                        + "' in " + file + (Files.exists(file) ? ":\n" + Files.readString(file, StandardCharsets.UTF_8) : ""));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }
}
