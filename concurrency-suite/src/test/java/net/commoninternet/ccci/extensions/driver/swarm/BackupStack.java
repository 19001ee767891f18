package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;

/** The backup proofs' stacks: one from a compose resource, deployed fresh and converged, and the BackupBot of a run folder. */
final class BackupStack {

    private BackupStack() {
    }

    static BackupBot deploy(DockerEngine docker, String resource, String stack, Path runDir) throws Exception {
        new StackTeardown(docker.client()).teardown(stack);
        Path compose = runDir.resolve("compose.yml");
        try (InputStream in = BackupStack.class.getResourceAsStream(resource)) {
            Files.write(compose, in.readAllBytes());
        }
        ChildProcesses processes = new ChildProcesses(Map.of());
        processes.run(List.of("docker", "stack", "deploy", "--detach=true", "--resolve-image", "never", "-c",
                compose.toString(), stack), runDir).orThrow();
        assertThat(new SwarmConvergence(docker).await(stack, Duration.ofMinutes(2)).converged()).isTrue();
        return new BackupBot(docker, processes, runDir.resolve("backup"));
    }
}
