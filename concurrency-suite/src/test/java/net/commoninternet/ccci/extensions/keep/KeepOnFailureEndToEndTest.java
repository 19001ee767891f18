package net.commoninternet.ccci.extensions.keep;

import static org.assertj.core.api.Assertions.assertThat;

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
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.lock.KeepRecord;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.ForkNamespace;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed run's app kept for a while ({@code -Dccci.keep-on-failure}), for real: the canary
 * ({@code custom-html-broken}, red on its upgrade rung) under {@code mvn test}, its app handed with its
 * flock to a keeper process that outlives the command. Each mvn run serves several assertions: the app
 * serves after the command ended, its lock held by the keeper, the printed shell command runs {@code id}
 * in it, another recipe's run beside it leaves it alone, a run given the kept run's id refuses, and at the
 * deadline nothing of it is left; the printed end command ends a keep at once; a SIGKILLed keeper's app is
 * reaped by the next run's janitor, and a new run of the same domain ends a keep and says so; a cancel of
 * the command parked inside the hand-over leaves nothing.
 */
@RealEngine
class KeepOnFailureEndToEndTest {

    private static final Duration RUN = Duration.ofMinutes(5);
    private static final AtomicInteger RUNS = new AtomicInteger();

    @TempDir
    Path sandbox;

    private final List<String> domains = new ArrayList<>();

    @AfterEach
    void leaveNothing() throws Exception {
        for (String domain : domains) {
            KeepRecord.read(ForkNamespace.LOCK_DIR, domain).flatMap(KeepRecord::keeper).ifPresent(keeper -> {
                keeper.destroyForcibly();
                keeper.onExit().join();
            });
            MavenRun.removeLeftovers(domain);
        }
    }

    /** One mvn run of the canary; its exit, output and domain. */
    private record Ran(int exit, String output, String domain, Path runDir) {
        Path lock() {
            return AppDomainLock.path(ForkNamespace.LOCK_DIR, domain);
        }

        /** The command a RUN SUMMARY line {@code app kept: <what>: <command>} prints. */
        String printed(String what) {
            return output.lines().filter(l -> l.contains("app kept: " + what + ": ")).findFirst()
                    .map(l -> l.substring(l.indexOf(what + ": ") + what.length() + 2).strip())
                    .orElseThrow(() -> new AssertionError("no '" + what + "' command printed:\n" + output));
        }
    }

    private Ran canary(String keep, Map<String, String> extraEnv) throws Exception {
        return run("custom-html-broken", keep, extraEnv);
    }

    private Ran run(String recipe, String keep, Map<String, String> extraEnv, String... extraProps) throws Exception {
        String runId = "keep-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet();
        Map<String, String> env = new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()));
        env.putAll(extraEnv);
        List<String> props = new ArrayList<>(List.of("-Drecipe=" + recipe, "-Dccci.run-id=" + runId));
        if (!keep.isEmpty()) {
            props.add("-Dccci.keep-on-failure=" + keep);
        }
        props.addAll(List.of(extraProps));
        MavenRun mvn = MavenRun.start(sandbox.resolve(runId + ".log"), env, props.toArray(String[]::new));
        int exit = mvn.waitFor(RUN);
        String output = mvn.output();
        String domain = MavenRun.Started.parse(mvn.awaitLine("== ccci run ", Duration.ZERO)).domain();
        domains.add(domain);
        return new Ran(exit, output, domain, sandbox.resolve("runs").resolve(runId));
    }

    private static String sh(String command, String input) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
        try (var in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(command).isTrue();
        assertThat(p.exitValue()).as(command + ":\n" + out).isZero();
        return out;
    }

    private static List<String> leftovers(String domain) throws IOException {
        try (DockerEngine docker = DockerEngine.connect()) {
            return new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain));
        }
    }

    private static ProcessHandle keeper(Ran ran) {
        return KeepRecord.read(ForkNamespace.LOCK_DIR, ran.domain()).flatMap(KeepRecord::keeper)
                .orElseThrow(() -> new AssertionError("no live keeper of " + ran.domain() + ":\n" + ran.output()));
    }

    @Test
    void aFailedRunsAppIsKeptAfterTheCommandShelledIntoLeftAloneBesideAndGoneAtItsDeadline() throws Exception {
        Ran ran = canary("90", Map.of());

        assertThat(ran.exit()).as(ran.output()).isNotZero();
        ProcessHandle keeper = keeper(ran);
        // the command has ended; the app serves, its lock held by the keeper, a process of its own session
        assertThat(LockProbe.held(ran.lock())).as("the keeper holds the app lock").isTrue();
        assertThat(leftovers(ran.domain())).as("the app is still deployed").isNotEmpty();
        String shell = ran.printed("a shell in it");
        assertThat(sh(shell + " wget -qO- http://127.0.0.1:80/", "")).as("the kept app serves").contains(ran.domain());
        assertThat(sh(shell, "id\n")).as("the printed shell runs id in the app's container").contains("uid=");
        assertThat(Files.readString(ran.runDir().resolve("summary.md"))).contains(shell, ran.printed("end the keep now"));
        // a run given the kept run's id (started now, it refuses while the next runs): the keeper holds the
        // run's folder too, so it refuses, and nothing of the keep is touched
        MavenRun sameId = MavenRun.start(sandbox.resolve("same-id.log"), Map.of("CCCI_RUNS_DIR",
                sandbox.resolve("runs").toString(), "ABRA_DIR", sandbox.resolve("abra").toString()),
                "-Drecipe=custom-html", "-Dccci.run-id=" + ran.runDir().getFileName());
        // another recipe's run beside it: its janitor sees a live owner and leaves the app alone
        Ran beside = run("custom-html", "", Map.of());
        assertThat(beside.exit()).as(beside.output()).isZero();
        assertThat(beside.output()).containsPattern("janitor: \\d+ run app\\(s\\) found; (.*; )?1 live( ==|;)");
        assertThat(keeper.isAlive()).isTrue();
        assertThat(leftovers(ran.domain())).as("the kept app after a run beside it").isNotEmpty();
        assertThat(sameId.waitFor(RUN)).as(sameId.output()).isNotZero();
        assertThat(sameId.output()).contains("belongs to a live run", "`sh " + ran.runDir().resolve("keep/end") + "`");
        assertThat(keeper.isAlive()).isTrue();
        assertThat(sh(shell, "id\n")).as("the keep's shell after the refused run").contains("uid=");

        // the deadline: the keeper tears down, then exits, and only then is the lock free
        keeper.onExit().get(4, TimeUnit.MINUTES);
        assertThat(leftovers(ran.domain())).as("nothing of the app after the deadline").isEmpty();
        assertThat(LockProbe.held(ran.lock())).isFalse();
        assertThat(KeepRecord.read(ForkNamespace.LOCK_DIR, ran.domain())).isEmpty();
        assertThat(Files.readString(ran.runDir().resolve("keep/keeper.log"))).contains("the keep ends (its deadline",
                "teardown of " + ran.domain() + ": clean");
    }

    @Test
    void aSigkilledKeepersAppIsReapedByTheNextJanitorAndANewRunOfTheDomainEndsAKeep() throws Exception {
        Ran first = canary("600", Map.of());
        ProcessHandle keeper = keeper(first);
        assertThat(leftovers(first.domain())).isNotEmpty();
        keeper.destroyForcibly();
        keeper.onExit().get(1, TimeUnit.MINUTES);
        assertThat(LockProbe.held(first.lock())).as("the kernel dropped the flock with the keeper").isFalse();

        // the next run of the domain: its janitor reaps the dead keeper's app, then it fails and is kept in turn
        Ran second = canary("600", Map.of());
        assertThat(second.domain()).isEqualTo(first.domain());
        assertThat(second.output()).contains("janitor: " + first.domain() + " reaped");
        ProcessHandle secondKeeper = keeper(second);

        // a third run of the same domain ends that keep, says so, waits for the lock, and leaves nothing
        Ran third = canary("", Map.of());
        assertThat(third.output()).contains("a new run of it ends the keep");
        assertThat(secondKeeper.isAlive()).isFalse();
        assertThat(Files.readString(second.runDir().resolve("keep/keeper.log"))).contains("the keep ends (SIGTERM)");
        assertThat(leftovers(third.domain())).isEmpty();
        assertThat(LockProbe.held(third.lock())).isFalse();
    }

    /**
     * A kept app with a generated secret ({@code notes-demo}, its 0.2.0 left unbumped so its upgrade
     * fails): what the printed shell prints is masked of the run's secrets, which only the keeper holds;
     * then the printed end command ends the keep at once.
     */
    @Test
    void theKeptAppsShellMasksTheRunsSecretsAndThePrintedEndCommandEndsTheKeepNow() throws Exception {
        Ran ran = run(unbumpedNotesDemo(), "600", Map.of(), "-Dccci.recipes=" + sandbox.resolve("recipes"));
        assertThat(ran.exit()).as(ran.output()).isNotZero();
        ProcessHandle keeper = keeper(ran);
        String container = sh("docker ps -q --filter label=com.docker.swarm.service.name="
                + AppNaming.stackName(ran.domain()) + "_app", "").strip().lines().findFirst()
                .orElseThrow(() -> new AssertionError("no running app container of " + ran.domain()));
        // read around the keeper, straight from the engine: the value its shell must never show
        String secret = sh("docker exec " + container + " cat /run/secrets/db_password", "").strip();
        assertThat(secret).as("the run's generated secret").hasSizeGreaterThanOrEqualTo(12);
        String shown = sh(ran.printed("a shell in it") + " 'cat /run/secrets/db_password; echo; id'", "");
        assertThat(shown).as("the kept app's shell").contains("uid=").contains("********");
        // asserted without quoting it: a failure's message must not carry the secret into the reports either
        assertThat(shown.contains(secret)).as("the kept app's shell printed the run's secret in clear").isFalse();

        String said = sh(ran.printed("end the keep now"), "");
        assertThat(said).contains("ending the keep of " + ran.domain());
        // the command returns once the keeper has torn down and its process ended (the flock goes with it)
        keeper.onExit().get(30, TimeUnit.SECONDS);
        assertThat(leftovers(ran.domain())).isEmpty();
        assertThat(LockProbe.held(ran.lock())).isFalse();
        assertThat(Files.readString(ran.runDir().resolve("keep/keeper.log"))).contains("the keep ends (its end command)");
    }

    /**
     * {@code notes-demo} as a recipe folder of the test's own whose 0.2.0 forgot its bump (0.1.0's compose,
     * label and images): a run that fails its upgrade rung, with a generated secret mounted in its app.
     */
    private String unbumpedNotesDemo() throws IOException {
        String name = "notes-unbumped";
        Path from = MavenRun.ROOT.resolve("recipe-suites/recipes/notes-demo");
        Path to = sandbox.resolve("recipes").resolve(name);
        Files.createDirectories(to.getParent());
        org.apache.commons.io.file.PathUtils.copyDirectory(from, to);
        Path versions = to.resolve("versions");
        Files.copy(versions.resolve("0.1.0+1.36.0/compose.yml"), versions.resolve("0.2.0+1.36.1/compose.yml"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (var each = Files.list(versions)) {
            for (Path version : each.toList()) {
                Path env = version.resolve(".env.sample");
                Files.writeString(env, Files.readString(env).replace("TYPE=notes-demo", "TYPE=" + name));
            }
        }
        return name;
    }

    @Test
    void aCancelOfTheCommandDuringTheHandOverLeavesNothing() throws Exception {
        Path gate = sandbox.resolve("gate");
        Path log = sandbox.resolve("cancelled.log");
        String runId = "keep-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet();
        MavenRun mvn = MavenRun.start(sandbox.resolve(runId + ".mvn.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString(), KeepOnFailure.TEST_GATE, gate.toString()),
                "-Drecipe=custom-html-broken", "-Dccci.run-id=" + runId, "-Dccci.keep-on-failure=600", "-Dccci.log-file=" + log);
        try {
            String domain = MavenRun.Started.parse(MavenRun.awaitLine(log, "== ccci run ", RUN, mvn.process::isAlive)).domain();
            domains.add(domain);
            // parked inside the hand-over: the keeper holds the lock beside the run, the commit not made
            MavenRun.awaitLine(log, "hand-over is parked at the test gate", RUN, () -> true);
            Optional<ProcessHandle> parkedKeeper = keeperProcess(domain);
            assertThat(parkedKeeper).as("a keeper was started").isPresent();
            new ProcessBuilder("kill", "-TERM", "--", "-" + mvn.process.pid()).start().waitFor();
            MavenRun.awaitLine(log, "SIGTERM during teardown", RUN, () -> true);
            Files.createFile(gate);
            // the whole process group gone (the fork tears down after Maven exited)
            while (new ProcessBuilder("kill", "-0", "--", "-" + mvn.process.pid()).start().waitFor() == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
            assertThat(Files.readString(log)).contains("the command was stopped during the hand-over");
            assertThat(parkedKeeper.get().isAlive()).as("the keeper was killed").isFalse();
            assertThat(keeperProcess(domain)).isEmpty();
            assertThat(leftovers(domain)).as("nothing of the app after the cancel").isEmpty();
            assertThat(LockProbe.held(AppDomainLock.path(ForkNamespace.LOCK_DIR, domain))).isFalse();
        } finally {
            if (!Files.exists(gate)) {
                Files.createFile(gate);
            }
            mvn.kill();
        }
    }

    /** A live keeper of {@code domain}, by its command line (before its record exists). */
    private static Optional<ProcessHandle> keeperProcess(String domain) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("")
                .contains(Keeper.class.getName() + " domain=" + domain + " ")).findFirst();
    }
}
