package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.commoninternet.ccci.extensions.docker.AnsweringEngine;
import org.junit.jupiter.api.Test;

/** How a service's log stream becomes a tier's log file; the swarm side is ServiceLogSwarmTest. */
class ServiceLogTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final Set<String> NO_SECRETS = Set.of();

    @Test
    void aLineOfATasksLogGivesItsTimeAndItsMessage() {
        assertThat(ServiceLog.parse("2026-11-30T10:09:05.616846210Z GET / 200", "app.1.gz9fm0vw00zc"))
                .isEqualTo(new ServiceLog.Line(Instant.parse("2026-11-30T10:09:05.616846210Z"), "app.1.gz9fm0vw00zc",
                        "GET / 200"));
        assertThat(ServiceLog.parse("not a time stamp", "app.1")).isNull();
    }

    @Test
    void aTaskIsNamedLikeTheCliNamesItWithoutItsStack() {
        assertThat(ServiceLog.taskName(Map.of("com.docker.swarm.task.name",
                "cust-4734d8_ci_commoninternet_net_app.2.za095t0tkbkt7gvax95vtobtf"), "cust-4734d8_ci_commoninternet_net"))
                .isEqualTo("app.2.za095t0tkbkt");
    }

    @Test
    void aWindowKeepsWhatCameAfterItsStartUpToItsEndMergingTasksInTimeOrder() {
        List<ServiceLog.Line> received = List.of(
                line(0, "app.1", "before the window"),
                line(3, "app.2", "third"),
                line(1, "app.1", "first, on the start's edge + 1"),
                line(2, "app.1", "second"),
                line(4, "app.1", "on the end's edge"),
                line(5, "app.2", "after the window"));

        ServiceLog.Window window = ServiceLog.Window.of(received, T0, T0.plusSeconds(4));

        assertThat(window.lines()).extracting(ServiceLog.Line::text)
                .containsExactly("first, on the start's edge + 1", "second", "third", "on the end's edge");
        assertThat(window.cut()).isFalse();
        assertThat(window.render(NO_SECRETS)).startsWith("2026-11-30T10:00:01Z app.1 | first");
    }

    @Test
    void aChattyServiceKeepsOnlyItsLastLinesAndSaysSo() {
        List<ServiceLog.Line> received = new ArrayList<>();
        for (int i = 1; i <= ServiceLog.MAX_LINES + 10; i++) {
            received.add(new ServiceLog.Line(T0.plusMillis(i), "app.1", "line " + i));
        }

        ServiceLog.Window window = ServiceLog.Window.of(received, T0, T0.plusSeconds(60));
        List<String> written = window.render(NO_SECRETS).lines().toList();

        assertThat(window.cut()).isTrue();
        assertThat(written).hasSize(ServiceLog.MAX_LINES + 1);
        assertThat(written.get(0)).isEqualTo("[ccci: only the last 5000 lines (at most 8 MiB of them per task) of this tier are kept]");
        assertThat(written.get(1)).endsWith("| line 11");
        assertThat(written.get(written.size() - 1)).endsWith("| line 5010");
    }

    @Test
    void secretValuesAreMaskedBeforeALongLineIsCutSoNoPartOfOneIsLeft() {
        String secret = "Zq81xVbn0PqLr4tWcY7uKs2mHd9fGe3A";
        String longLine = "x".repeat(ServiceLog.MAX_LINE_CHARS - 10) + secret + " tail";
        ServiceLog.Window window = ServiceLog.Window.of(List.of(
                line(1, "db.1", "password=" + secret + " user=" + secret.substring(0, 8)),
                line(2, "db.1", longLine)), T0, T0.plusSeconds(60));

        String written = window.render(List.of(secret, secret.substring(0, 8) + "never-logged"));

        assertThat(written).doesNotContain(secret).doesNotContain(secret.substring(0, 10))
                .contains("password=******** user=" + secret.substring(0, 8))
                .contains("[ccci: line cut at 2000 characters]");
    }

    private static ServiceLog.Line line(int second, String task, String text) {
        return new ServiceLog.Line(T0.plusSeconds(second), task, text);
    }

    /**
     * A task container swarm removed between the list and the read (a task that failed to start and
     * was replaced, seen under gVisor) answers 404 for its log: the read goes on with the other tasks
     * (an engine stand-in, named as such, answers the node list, the container list and each log).
     */
    @Test
    void aTaskContainerGoneBetweenTheListAndTheReadIsSkippedAndTheOthersAreRead() throws Exception {
        String frame = "2026-11-30T10:00:02.000000000Z from the live task\n";
        AnsweringEngine engine = new AnsweringEngine(path -> path.startsWith("/containers/gone/") ? 404 : 200, path -> {
            if (path.startsWith("/info")) {
                return "{\"Swarm\":{\"NodeID\":\"n1\"}}";
            } else if (path.startsWith("/nodes")) {
                return "[{\"ID\":\"n1\",\"Description\":{\"Hostname\":\"h1\"},\"Status\":{\"State\":\"ready\"}}]";
            } else if (path.startsWith("/containers/json")) {
                return "[{\"Id\":\"gone\",\"Labels\":{\"com.docker.swarm.task.name\":\"s_app.1.aaaaaaaaaaaaaaaaaaaaaaaaa\"}},"
                        + "{\"Id\":\"live\",\"Labels\":{\"com.docker.swarm.task.name\":\"s_app.2.bbbbbbbbbbbbbbbbbbbbbbbbb\"}}]";
            } else if (path.startsWith("/containers/gone/")) {
                return "{\"message\":\"No such container: gone\"}";
            }
            // the engine's stream framing: stdout (1), three zero bytes, the payload's length, the payload
            return new String(new byte[] {1, 0, 0, 0, 0, 0, 0, (byte) frame.length()}, StandardCharsets.ISO_8859_1)
                    + frame;
        });
        com.github.dockerjava.api.DockerClient client = com.github.dockerjava.core.DockerClientImpl.getInstance(
                com.github.dockerjava.core.DefaultDockerClientConfig.createDefaultConfigBuilder().build(), engine);

        ServiceLog.Window window = ServiceLog.read(client, "svc1", "s", T0, T0.plusSeconds(10));

        assertThat(window.lines()).extracting(ServiceLog.Line::task, ServiceLog.Line::text)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("app.2.bbbbbbbbbbbb", "from the live task"));
        assertThat(engine.paths).anyMatch(p -> p.startsWith("GET /containers/gone/logs"));
    }
}
