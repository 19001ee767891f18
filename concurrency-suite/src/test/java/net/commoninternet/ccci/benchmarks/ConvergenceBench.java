package net.commoninternet.ccci.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;

/**
 * Convergence benchmark (issue 5), run on demand with {@code scripts/bench convergence}: on the
 * same 3-service stack, per round,
 * <ol>
 *   <li>ccci: {@code docker stack deploy --detach=true}, then {@link SwarmConvergence#await};
 *   <li>swarm itself, in the same round: every current-spec task running, polled every 10 ms
 *       on the socket from the moment the deploy starts;
 *   <li>the CLI's own wait, in a round of its own: {@code docker stack deploy --detach=false}.
 * </ol>
 * Prints each round and the medians. Target: ccci within 1.25x of swarm's own time.
 */
public final class ConvergenceBench {

    private static final String STACK = "ccci-bench-convergence";
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path compose = Files.createTempFile("ccci-bench-", ".yml");
        try (InputStream in = ConvergenceBench.class.getResourceAsStream("/bench/three-services.yml");
             DockerEngine docker = DockerEngine.connect()) {
            Files.write(compose, in.readAllBytes());
            StackTeardown teardown = new StackTeardown(docker.client());
            SwarmConvergence convergence = new SwarmConvergence(docker);
            List<Long> ccci = new ArrayList<>();
            List<Long> swarm = new ArrayList<>();
            List<Long> cli = new ArrayList<>();
            System.out.printf("%-6s %10s %10s %10s%n", "round", "swarm ms", "ccci ms", "cli ms");
            for (int round = 1; round <= rounds; round++) {
                teardown.teardown(STACK);
                long t0 = System.nanoTime();
                CompletableFuture<Long> swarmTime = CompletableFuture.supplyAsync(() -> allRunning(docker.http(), t0,
                        Set.of(STACK), 3));
                deploy(compose, true);
                SwarmConvergence.Report report = convergence.await(STACK, Duration.ofMinutes(2));
                long ccciMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                if (!report.converged()) {
                    throw new IllegalStateException("did not converge: " + report.describe());
                }
                long swarmMs = swarmTime.get(2, TimeUnit.MINUTES);
                teardown.teardown(STACK);
                long t1 = System.nanoTime();
                deploy(compose, false);
                long cliMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);
                teardown.teardown(STACK);
                swarm.add(swarmMs);
                ccci.add(ccciMs);
                cli.add(cliMs);
                System.out.printf("%-6d %10d %10d %10d%n", round, swarmMs, ccciMs, cliMs);
            }
            long s = median(swarm);
            long c = median(ccci);
            System.out.printf("%-6s %10d %10d %10d   ccci/swarm = %.2f, cli/swarm = %.2f%n", "median", s, c, median(cli),
                    (double) c / s, (double) median(cli) / s);
        } finally {
            Files.deleteIfExists(compose);
        }
    }

    private static void deploy(Path compose, boolean detach) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("docker", "stack", "deploy", "--detach=" + detach, "--resolve-image", "never",
                "-c", compose.toString(), STACK).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("docker stack deploy failed");
        }
    }

    /** Milliseconds from t0 until {@code wanted} current-spec tasks of {@code stacks} run (polled every 10 ms on the socket). */
    static long allRunning(DockerHttpClient http, long t0, Set<String> stacks, int wanted) {
        String filters = URLEncoder.encode("{\"desired-state\":[\"running\"],\"_up-to-date\":[\"true\"]}", StandardCharsets.UTF_8);
        while (true) {
            DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                    .method(DockerHttpClient.Request.Method.GET).path("/tasks?filters=" + filters).build();
            try (DockerHttpClient.Response response = http.execute(request)) {
                JsonNode tasks = JSON.readTree(response.getBody());
                long running = 0;
                for (JsonNode t : tasks) {
                    boolean ours = stacks.contains(t.path("Spec").path("ContainerSpec").path("Labels").path(StackLabels.NAMESPACE).asText());
                    if (ours && t.path("Status").path("State").asText().equals("running")) {
                        running++;
                    }
                }
                if (running >= wanted) {
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                }
                TimeUnit.MILLISECONDS.sleep(10);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static long median(List<Long> values) {
        return ParallelRunsBench.median(values);
    }
}
