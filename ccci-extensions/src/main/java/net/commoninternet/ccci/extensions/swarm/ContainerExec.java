package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/** {@code sh -c} inside a service's running container: hooks, markers, probes of app state. */
@API(status = API.Status.INTERNAL)
public final class ContainerExec {

    /** What the command left: its exit status and merged output. */
    public record Result(long exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private final DockerClient client;

    public ContainerExec(DockerClient client) {
        this.client = client;
    }

    /** A running container of the service, or an error naming the service. */
    public String runningContainer(String service) {
        List<Container> containers = client.listContainersCmd()
                .withLabelFilter(Map.of("com.docker.swarm.service.name", service))
                .withStatusFilter(List.of("running")).exec();
        if (containers.isEmpty()) {
            throw new IllegalStateException("no running container of " + service);
        }
        return containers.get(0).getId();
    }

    public Result sh(String container, String script) throws InterruptedException {
        String exec = client.execCreateCmd(container).withCmd("sh", "-c", script)
                .withAttachStdout(true).withAttachStderr(true).exec().getId();
        StringBuilder output = new StringBuilder();
        client.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                output.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
            }
        }).awaitCompletion();
        Long exit = client.inspectExecCmd(exec).exec().getExitCodeLong();
        return new Result(exit == null ? -1 : exit, output.toString().strip());
    }
}
