package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import net.commoninternet.ccci.extensions.docker.AnsweringEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the janitor looks, engine-free: env files on disk, and the swarm's lists as the engine
 * answers them (a stand-in HTTP client replaying answers in the engine's JSON; the real lists:
 * concurrency-suite's JanitorSwarmTest).
 */
class JanitorCandidatesTest {

    private static final String RUN = "cand-0a0a0a.ci.commoninternet.net";
    private static final String STACK = "cand-0a0a0a_ci_commoninternet_net";

    @TempDir
    Path servers;

    @Test
    void envFilesOfRunAppsAreCandidatesAndNothingElse() throws Exception {
        assertThat(JanitorCandidates.fromEnvFiles(servers.resolve("none"), AppNaming.DEFAULT_SUFFIX)).isEmpty();
        Path server = Files.createDirectories(servers.resolve("default"));
        Files.writeString(server.resolve(RUN + ".env"), "");
        Files.writeString(server.resolve("warm.example.org.env"), "");
        Files.writeString(server.resolve("cand-1b1b1b.ci.commoninternet.net.txt"), "");
        Files.createDirectories(server.resolve("cand-2c2c2c.ci.commoninternet.net.env"));
        assertThat(JanitorCandidates.fromEnvFiles(servers, AppNaming.DEFAULT_SUFFIX)).containsExactly(RUN);
    }

    /**
     * Other runs remove their env files and server folders while a janitor walks them (a teardown
     * beside this run's sweep): a file gone between its listing and its reading is passed over, never
     * a failed sweep. Before the fix one walk in about forty failed with NoSuchFileException here
     * (a concurrent battery's janitor failed so); with it, none of 3000 may.
     */
    @Test
    void envFilesRemovedDuringTheWalkArePassedOverNotASweepFailure() throws Exception {
        Path server = Files.createDirectories(servers.resolve("default"));
        Files.writeString(server.resolve(RUN + ".env"), "");
        AtomicBoolean done = new AtomicBoolean();
        Thread churn = new Thread(() -> {
            for (int i = 0; !done.get(); i++) {
                Path file = server.resolve("cand-" + String.format("%06x", i % 64) + ".ci.commoninternet.net.env");
                Path folder = servers.resolve("other-" + i % 8);
                try {
                    Files.writeString(file, "");
                    Files.delete(file);
                    Files.createDirectories(folder);
                    Files.writeString(folder.resolve(RUN.replace("0a0a0a", "3d3d3d") + ".env"), "");
                    Files.delete(folder.resolve(RUN.replace("0a0a0a", "3d3d3d") + ".env"));
                    Files.delete(folder);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }, "churn");
        churn.start();
        try {
            for (int walk = 0; walk < 3000; walk++) {
                assertThat(JanitorCandidates.fromEnvFiles(servers, AppNaming.DEFAULT_SUFFIX)).as("walk %d", walk).contains(RUN);
            }
        } finally {
            done.set(true);
            churn.join();
        }
    }

    /** Answers each list with the JSON given for its kind (the path's first segment), else an empty list. */
    private static AnsweringEngine answering(Map<String, String> byKind, int status) {
        return new AnsweringEngine(status, path -> byKind.getOrDefault(path.substring(1, path.indexOf('?')), "[]"));
    }

    @Test
    void everyStackLabelledObjectKindNamesItsRunApp() throws Exception {
        String labelled = "{\"Spec\":{\"Labels\":{\"com.docker.stack.namespace\":\"%s\"}}}";
        for (String kind : List.of("services", "secrets", "configs")) {
            assertThat(JanitorCandidates.fromSwarm(answering(Map.of(kind, "[" + labelled.formatted(STACK) + ","
                    + labelled.formatted("warm_example_org") + ",{\"Spec\":{\"Labels\":{}}}]"), 200), AppNaming.DEFAULT_SUFFIX))
                    .as(kind).containsExactly(RUN);
        }
        assertThat(JanitorCandidates.fromSwarm(answering(Map.of("volumes",
                "{\"Volumes\":[{\"Labels\":{\"com.docker.stack.namespace\":\"" + STACK + "\"}}]}"), 200), AppNaming.DEFAULT_SUFFIX)).containsExactly(RUN);
        assertThat(JanitorCandidates.fromSwarm(answering(Map.of("networks",
                "[{\"Labels\":{\"com.docker.stack.namespace\":\"" + STACK + "\"}}]"), 200), AppNaming.DEFAULT_SUFFIX)).containsExactly(RUN);
        AnsweringEngine none = answering(Map.of(), 200);
        assertThat(JanitorCandidates.fromSwarm(none, AppNaming.DEFAULT_SUFFIX)).isEmpty();
        assertThat(none.paths).hasSize(6).allMatch(p -> p.contains("filters="))
                .filteredOn(p -> p.contains("com.docker.stack.namespace")).hasSize(5);
        assertThatThrownBy(() -> JanitorCandidates.fromSwarm(answering(Map.of(), 500), AppNaming.DEFAULT_SUFFIX)).isInstanceOf(IOException.class)
                .hasMessage("listing services failed with HTTP 500");
    }

    /**
     * A probe or browser container is a plain container, no swarm object, and carries only ccci's
     * probe label: a run that died after its stack and env file were gone (abra's {@code app rm}
     * done, the teardown's container pass not yet) leaves nothing else to find it by. Every
     * container, stopped ones too, is listed by the label's presence.
     */
    @Test
    void aProbeContainerNamesItsRunAppWhenNothingElseOfTheStackIsLeft() throws Exception {
        AnsweringEngine probes = answering(Map.of("containers/json", "[{\"Labels\":{\"net.commoninternet.ccci.probe\":\""
                + STACK + "\"}},{\"Labels\":{\"net.commoninternet.ccci.probe\":\"cccihttpprobe_3f19757e146b\"}},"
                + "{\"Labels\":{\"com.docker.stack.namespace\":\"" + STACK.replace("0a0a0a", "1b1b1b") + "\"}}]"), 200);

        assertThat(JanitorCandidates.fromSwarm(probes, AppNaming.DEFAULT_SUFFIX)).containsExactly(RUN);
        assertThat(probes.paths).filteredOn(p -> p.startsWith("GET /containers/json")).singleElement().asString()
                .contains("all=true").contains("net.commoninternet.ccci.probe");
    }
}
