package net.commoninternet.ccci.extensions.deployment;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.api.CiKeys.Probe;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.extensions.swarm.HttpProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recipe's own probes of its live app ({@code READY_PROBE}, {@code BACKUP_VERIFY}): an HTTP
 * path that must answer a {@code HEALTH_OK} status, N TCP connects in a row to the routed
 * service, or a command in a service's container that must exit 0.
 */
public final class AppProbes {

    private static final Logger LOG = LoggerFactory.getLogger(AppProbes.class);

    /** One probe's outcome, with what was seen. */
    public record Outcome(boolean ok, String detail) {
    }

    private final Deployment deployment;
    private final CiKeys keys;

    public AppProbes(Deployment deployment, CiKeys keys) {
        this.deployment = deployment;
        this.keys = keys;
    }

    /** Runs the probe once. */
    Outcome once(Probe probe) throws InterruptedException {
        String stack = deployment.app().stack();
        HttpProbe http = new HttpProbe(deployment.docker().client());
        return switch (probe.kind()) {
            case HTTP -> {
                HttpProbe.Target target = http.target(stack).orElse(null);
                if (target == null) {
                    yield new Outcome(false, "no service of " + stack + " is routed (traefik.enable=true with a port label)");
                }
                HttpProbe.Answer answer = http.get(stack, target, deployment.app().domain(), probe.path());
                yield new Outcome(keys.healthOk().contains(answer.status()),
                        "GET " + probe.path() + " answered " + (answer.status() < 0 ? answer.detail() : answer.status()));
            }
            case TCP -> {
                HttpProbe.Target target = http.target(stack).orElse(null);
                if (target == null) {
                    yield new Outcome(false, "no service of " + stack + " is routed (traefik.enable=true with a port label)");
                }
                boolean ok = http.tcp(stack, target.service(), probe.port(), probe.stableConnects());
                yield new Outcome(ok, probe.stableConnects() + " TCP connect(s) in a row to " + target.service() + ":"
                        + probe.port() + (ok ? " succeeded" : " did not all succeed"));
            }
            case EXEC -> {
                ContainerExec exec = new ContainerExec(deployment.docker().client());
                try {
                    ContainerExec.Result result = exec.sh(exec.runningContainer(stack + "_" + probe.service()), probe.command());
                    yield new Outcome(result.ok(), "`" + probe.command() + "` in " + probe.service() + " exited "
                            + result.exitCode() + (result.output().isEmpty() ? "" : ": " + result.output()));
                } catch (IllegalStateException e) {
                    yield new Outcome(false, e.getMessage());
                }
            }
        };
    }

    /** Repeats the probe until it passes or {@code timeout} ends; returns the last outcome. */
    public Outcome await(Probe probe, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Outcome outcome = once(probe);
        while (!outcome.ok() && System.nanoTime() < deadline) {
            TimeUnit.SECONDS.sleep(1);
            outcome = once(probe);
        }
        return outcome;
    }

    /** Up to {@code attempts} tries, two seconds apart; returns the first pass or the last failure. */
    public Outcome retry(Probe probe, int attempts) throws InterruptedException {
        Outcome outcome = once(probe);
        for (int i = 1; i < attempts && !outcome.ok(); i++) {
            LOG.info("{} failed (attempt {} of {}): {}", probe, i, attempts, outcome.detail());
            TimeUnit.SECONDS.sleep(2);
            outcome = once(probe);
        }
        return outcome;
    }
}
