package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.testing.ChildShims;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real manual runs ({@code mvn test -Drecipe=custom-html}, no run id) of one PR, so of one
 * app domain, at the same time, through the whole lifecycle. The first is held inside its deploy
 * (a gate in the docker shim, see {@link ChildShims}) until the second has run its preamble and
 * parked at the app lock; then both must pass, install's deployed-once check included:
 * <ul>
 *   <li>manual runs get {@code manual-<pid>} run folders, pid of the run's own JVM;
 *   <li>every child process (the first is a git command) gets its run's {@code ABRA_DIR}, which
 *       exists by then, and the exact paths of its run's state files;
 *   <li>the second run's preamble neither resets nor deletes the live first run's state files,
 *       and the first run's normal end does not delete the second's (the double-!testme
 *       regression, end to end).
 * </ul>
 */
@RealEngine
class ConcurrentManualRunsTest {

    private static final Duration RUN = Duration.ofMinutes(5);
    private static final String PR = "3010";

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    private Map<String, String> environment(String name) throws Exception {
        Map<String, String> env = new HashMap<>(ChildShims.install(sandbox.resolve("bin"), children(name)));
        env.put("CCCI_RUNS_DIR", sandbox.resolve("runs").toString());
        env.put("ABRA_DIR", sandbox.resolve("abra").toString());
        return env;
    }

    private Path children(String name) {
        return sandbox.resolve("children-" + name + ".log");
    }

    @Test
    void twoManualRunsOfOneDomainKeepTheirOwnDirsAndStateAndTakeTurnsAtTheLock() throws Exception {
        Path gate = sandbox.resolve("deploy-gate");
        Map<String, String> firstEnv = environment("first");
        firstEnv.put(ChildShims.GATE, gate.toString());
        // Install only: this is about run-keyed state and the lock, and install deploys exactly once.
        MavenRun first = MavenRun.start(sandbox.resolve("first.log"), firstEnv, "-Drecipe=custom-html", "-Dccci.pr=" + PR,
                "-Dccci.stages=install");
        MavenRun second = null;
        String domain = null;
        try {
            MavenRun.Started one = MavenRun.Started.parse(first.awaitLine("== ccci run ", RUN));
            domain = one.domain();
            MavenRun.awaitLine(children("first"), "deploy held", RUN, first.process::isAlive);

            second = MavenRun.start(sandbox.resolve("second.log"), environment("second"), "-Drecipe=custom-html",
                    "-Dccci.pr=" + PR, "-Dccci.stages=install");
            MavenRun.Started two = MavenRun.Started.parse(second.awaitLine("== ccci run ", RUN));
            second.awaitLine("== app lock: another run of " + domain + " is in flight — waiting ==", RUN);

            assertThat(two.domain()).isEqualTo(domain);
            assertThat(List.of(one, two)).allSatisfy(run -> {
                assertThat(run.runId()).isEqualTo("manual-" + run.pid());
                assertThat(run.abraDir()).isEqualTo(sandbox.resolve("runs/" + run.runId() + "/abra"));
            });
            assertThat(two.pid()).isNotEqualTo(one.pid());
            assertThat(deploys(one)).content().isEqualTo("1\n");
            assertThat(deploys(two)).content().isEqualTo("0\n");
            Files.createFile(gate);

            assertThat(first.waitFor(RUN)).as(first.output()).isZero();
            assertThat(second.waitFor(RUN)).as(second.output()).isZero();
            for (MavenRun.Started run : List.of(one, two)) {
                String name = run == one ? "first" : "second";
                List<String> children = Files.readAllLines(children(name), StandardCharsets.UTF_8).stream()
                        .filter(line -> !line.equals("deploy held")).toList();
                assertThat(children.get(0)).startsWith("git ");
                assertThat(children).allSatisfy(child -> assertThat(child)
                        .contains("ABRA_DIR=" + run.abraDir() + " recipes=present")
                        .contains("CCCI_DEPLOYS_FILE=" + deploys(run))
                        .contains("CCCI_OPSTATE_FILE=" + deploys(run).resolveSibling("ccci-opstate-" + key(run)))
                        .doesNotContain("=unset"));
                assertThat(children).filteredOn(child -> child.startsWith("docker stack deploy")).singleElement()
                        .asString().endsWith("deploys=1");
                assertThat(deploys(run)).doesNotExist();
            }
        } finally {
            first.kill();
            if (second != null) {
                second.kill();
            }
            if (domain != null) {
                MavenRun.removeLeftovers(domain);
            }
        }
    }

    private static String key(MavenRun.Started run) {
        return run.runId() + "-" + run.pid();
    }

    private Path deploys(MavenRun.Started run) {
        return sandbox.resolve("runs/" + run.runId() + "/ccci-deploys-" + key(run));
    }
}
