package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.helpers.ChattyLogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A chatty app cannot exhaust the heap: a real service prints about 74 MB of long lines, and its
 * log is read and rendered as a tier's service log is, in a JVM with a 64 MiB heap.
 */
@RealEngine
class ServiceLogBoundsTest {

    private final String stack = "ccci-chatty_" + Long.toHexString(System.nanoTime());
    private final DockerEngine docker = DockerEngine.connect();

    @RegisterExtension
    final Helpers helpers = new Helpers();

    @AfterEach
    void removeTheService() throws Exception {
        new StackTeardown(docker.client()).teardown(stack);
        docker.close();
    }

    @Test
    void aServicePrintingSeventyMegabytesOfLongLinesIsReadWithinASmallHeapAndCut() throws Exception {
        // 6,000 lines of 12,288 characters (under the daemon's 16 KiB line split), then a marker.
        String script = "h=x; i=0; while [ $i -lt 12 ]; do h=$h$h; i=$((i+1)); done; l=$h$h$h; "
                + "i=0; while [ $i -lt 6000 ]; do echo \"$l\"; i=$((i+1)); done; echo chatty-done; exec sleep 600";
        DockerClient client = docker.client();
        String service = client.createServiceCmd(new ServiceSpec().withName(stack + "_app")
                .withLabels(Map.of(StackLabels.NAMESPACE, stack))
                .withTaskTemplate(new TaskSpec().withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                        .withCommand(List.of("sh", "-c", script))
                        .withLabels(Map.of(StackLabels.NAMESPACE, stack)))))
                .exec().getId();
        awaitLogLine(client, service, "chatty-done");

        List<String> command = new ArrayList<>(Helper.java(ChattyLogReader.class, service, stack));
        command.set(command.indexOf("-Xmx96m"), "-Xmx64m");
        Helper reader = helpers.start(command);

        assertThat(reader.awaitExit(Duration.ofMinutes(3))).as(reader.describe()).isZero();
        String said = reader.awaitLine("rendered ");
        long chars = Long.parseLong(said.split(" ")[1]);
        assertThat(chars).as(said).isLessThan(ServiceLog.MAX_LINES * (ServiceLog.MAX_LINE_CHARS + 200L));
        assertThat(said).endsWith("cut true");
    }

    /** Observes the task's container log until {@code marker} is in its last line. */
    private static void awaitLogLine(DockerClient client, String service, String marker) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (true) {
            var containers = client.listContainersCmd().withLabelFilter(Map.of("com.docker.swarm.service.id", service)).exec();
            if (!containers.isEmpty()) {
                Process tail = new ProcessBuilder("/usr/local/bin/docker", "logs", "--tail", "1", containers.get(0).getId())
                        .redirectErrorStream(true).start();
                String last = new String(tail.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (tail.waitFor() == 0 && last.contains(marker)) {
                    return;
                }
            }
            assertThat(System.nanoTime()).as("the chatty service printed " + marker).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
    }
}
