package net.commoninternet.ccci.benchmarks;

import ch.qos.logback.classic.Level;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceReplicatedModeOptions;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.JanitorCandidates;
import net.commoninternet.ccci.extensions.lock.LockFile;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.apache.commons.io.FileUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import net.commoninternet.ccci.testing.LocalImages;
import org.slf4j.LoggerFactory;

/**
 * The janitor's discovery and probe with 50 live run stacks on the local swarm, side by side
 * with one {@code docker service ls} invocation. Target (issue 4): discovery + probe no slower
 * than that one CLI call. The stacks are services scaled to 0 (discovery lists objects, it
 * never looks at tasks), each with its lock held by this JVM, so every probe answers "live".
 * Only this benchmark's own domains are swept.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class JanitorSwarmBenchmark {

    private static final int STACKS = 50;

    private DockerEngine docker;
    private Path locks;
    private Path servers;
    private Janitor janitor;
    private final Set<String> mine = new TreeSet<>();
    private final List<LockFile> held = new ArrayList<>();

    @Setup
    public void deployFiftyLiveRuns() throws IOException {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Janitor.class)).setLevel(Level.WARN);
        docker = DockerEngine.connect();
        locks = Files.createTempDirectory(Path.of("/run/lock"), "ccci-bench-swarm-");
        servers = Files.createTempDirectory("ccci-bench-servers-");
        janitor = new Janitor(locks, Duration.ofHours(2), domain -> {
            throw new IllegalStateException("benchmark stacks are live; nothing may be reaped: " + domain);
        });
        for (int i = 0; i < STACKS; i++) {
            String domain = String.format("bnch-%06x.ci.commoninternet.net", 0xb00000 + i);
            String stack = AppNaming.stackName(domain);
            docker.client().createServiceCmd(new ServiceSpec().withName(stack + "_app").withLabels(StackLabels.of(stack))
                    .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(0)))
                    .withTaskTemplate(new TaskSpec().withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                            .withCommand(List.of("sleep", "600"))))).exec();
            LockFile lock = LockFile.open(AppDomainLock.path(locks, domain));
            lock.tryLock();
            held.add(lock);
            mine.add(domain);
        }
    }

    @TearDown
    public void removeThem() throws Exception {
        StackTeardown teardown = new StackTeardown(docker.client());
        for (String domain : mine) {
            teardown.teardown(AppNaming.stackName(domain));
        }
        held.forEach(LockFile::close);
        FileUtils.deleteDirectory(locks.toFile());
        FileUtils.deleteDirectory(servers.toFile());
        docker.close();
    }

    @Benchmark
    public Map<String, Janitor.Outcome> discoverAndProbe50LiveRuns() throws IOException {
        Set<String> candidates = new TreeSet<>(JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX));
        candidates.retainAll(mine);
        if (candidates.size() != STACKS) {
            throw new IllegalStateException("discovered " + candidates.size() + " of " + STACKS);
        }
        return janitor.sweep(candidates);
    }

    @Benchmark
    public int dockerServiceLsInvocation() throws IOException, InterruptedException {
        Process ls = new ProcessBuilder("docker", "service", "ls").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return ls.waitFor();
    }
}
