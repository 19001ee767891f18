package net.commoninternet.ccci.extensions.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.transport.DockerHttpClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Commands in an app's container through the shell ccci execs there once ({@link ContainerExec},
 * {@link AttachedShell#exec}), on the real engine under its runtime: the engine makes one exec for
 * many one-line commands (counted from its own events), each command's status and output (stderr
 * interleaved, as an exec's) are its own, a script of several lines and a command after one that
 * outlived its bound each get an exec of their own, and a container without {@code sh} still
 * answers every command as a plain exec would, never as a command that did not finish.
 */
@RealEngine
class ContainerShellTest {

    private final DockerEngine docker = DockerEngine.connect();
    private String container;

    @AfterEach
    void removeTheContainer() throws Exception {
        try {
            if (container != null) {
                docker.client().removeContainerCmd(container).withForce(true).exec();
            }
        } finally {
            docker.close();
        }
    }

    private String start() {
        container = docker.client().createContainerCmd(LocalImages.BUSYBOX).withCmd("sleep", "600")
                .withLabels(Map.of("net.commoninternet.ccci.test", "container-shell")).exec().getId();
        docker.client().startContainerCmd(container).exec();
        return container;
    }

    @Test
    void manyCommandsAreLinesToOneShellEachWithItsOwnStatusAndOutput() throws Exception {
        long since = System.currentTimeMillis() / 1000 - 1;
        String id = start();
        try (ContainerExec exec = new ContainerExec(docker.client())) {
            for (int i = 0; i < 5; i++) {
                ContainerExec.Result result = exec.sh(id, "echo out-" + i + "; echo err-" + i + " >&2; echo last-" + i + "; exit " + i);
                assertThat(result.exitCode()).isEqualTo(i);
                assertThat(result.output()).isEqualTo("out-" + i + "\nerr-" + i + "\nlast-" + i);
            }
            assertThat(exec.sh(id, "cat /etc/hostname").output()).isEqualTo(id.substring(0, 12));
            assertThat(execsIn(id, since)).as("the engine's execs for six one-line commands: the shell alone").isEqualTo(1);

            ContainerExec.Result lines = exec.sh(id, "echo one\necho two");
            assertThat(lines.output()).isEqualTo("one\ntwo");
            assertThat(execsIn(id, since)).as("a script of two lines: an exec of its own").isEqualTo(2);

            assertThat(exec.sh(id, "sleep 30", Duration.ofSeconds(2))).as("a command that outlives its bound").isEmpty();
            assertThat(exec.sh(id, "echo after").output()).isEqualTo("after");
            assertThat(execsIn(id, since)).as("after an overrun: a new shell").isEqualTo(3);
        }
    }

    @Test
    void aContainerWithoutShAnswersEveryCommandAsAPlainExecWould() throws Exception {
        String id = start();
        String rm = docker.client().execCreateCmd(id).withCmd("/bin/busybox", "rm", "/bin/sh").exec().getId();
        docker.client().execStartCmd(rm).exec(new ResultCallback.Adapter<>()).awaitCompletion();
        try (ContainerExec exec = new ContainerExec(docker.client())) {
            for (int i = 0; i < 2; i++) {
                Optional<ContainerExec.Result> result = exec.sh(id, "echo never", Duration.ofSeconds(30));
                assertThat(result).as("a command where no sh is: it ended").isPresent();
                assertThat(result.get().exitCode()).as(result.get().output()).isIn(126L, 127L);
                assertThat(result.get().output()).as("the engine's words, not the command's output").isNotEqualTo("never").contains("sh");
            }
        }
    }

    /** How many execs the engine's events show it made in {@code container} since {@code since} (epoch seconds). */
    private int execsIn(String container, long since) throws Exception {
        String filters = URLEncoder.encode("{\"container\":[\"" + container + "\"],\"event\":[\"exec_create\"]}",
                StandardCharsets.UTF_8);
        DockerHttpClient.Request request = DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET)
                .path("/events?since=" + since + "&until=" + (System.currentTimeMillis() / 1000 + 1) + "&filters=" + filters)
                .build();
        try (DockerHttpClient.Response response = docker.http().execute(request)) {
            assertThat(response.getStatusCode()).isEqualTo(200);
            String events = new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8);
            return (int) events.lines().filter(line -> line.contains("exec_create")).count();
        }
    }
}
