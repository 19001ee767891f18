package net.commoninternet.ccci.extensions.probe;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.api.CiKeys.Probe;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recipe's own probes of its live app ({@code READY_PROBE}, {@code BACKUP_VERIFY}): an HTTP
 * path that must answer one of the {@code healthOk} statuses, N TCP connects in a row to the
 * routed service, or a command in a service's container that must exit 0.
 */
@API(status = API.Status.INTERNAL)
public final class AppProbes {

    private static final Logger LOG = LoggerFactory.getLogger(AppProbes.class);

    /** One probe's outcome, with what was seen. */
    public record Outcome(boolean ok, String detail) {
    }

    private final HttpProbe http;
    private final ContainerExec exec;
    private final String stack;
    private final String domain;
    private final List<Integer> healthOk;

    public AppProbes(HttpProbe http, ContainerExec exec, String stack, String domain, List<Integer> healthOk) {
        this.http = http;
        this.exec = exec;
        this.stack = stack;
        this.domain = domain;
        this.healthOk = List.copyOf(healthOk);
    }

    /** Runs the probe once. */
    public Outcome once(Probe probe) throws InterruptedException {
        if (probe instanceof Probe.Exec exec) {
            return exec(exec);
        }
        HttpProbe.Target target = http.target(stack).orElse(null);
        if (target == null) {
            return new Outcome(false, "no service of " + stack + " is routed (traefik.enable=true with a port label)");
        }
        if (probe instanceof Probe.Http get) {
            HttpProbe.Answer answer = http.get(target, domain, get.path());
            return new Outcome(healthOk.contains(answer.status()), "GET " + get.path() + (answer.status() < 0
                    ? " got no answer (" + answer.detail().strip().replaceAll("\\s+", " ") + ")" : " answered " + answer.status()));
        }
        Probe.Tcp tcp = (Probe.Tcp) probe;
        boolean ok = http.tcp(target, tcp.port(), tcp.stableConnects());
        return new Outcome(ok, tcp.stableConnects() + " TCP connect(s) in a row to " + target.service() + ":"
                + tcp.port() + (ok ? " succeeded" : " did not all succeed"));
    }

    private Outcome exec(Probe.Exec probe) throws InterruptedException {
        try {
            ContainerExec.Result result = exec.sh(exec.runningContainer(stack + "_" + probe.service()), probe.command());
            return new Outcome(result.ok(), "`" + probe.command() + "` in " + probe.service() + " exited "
                    + result.exitCode() + (result.output().isEmpty() ? "" : ": " + result.output()));
        } catch (IllegalStateException e) {
            return new Outcome(false, e.getMessage());
        }
    }

    /** Repeats the probe until it passes or {@code timeout} ends; returns the last outcome. */
    public Outcome await(Probe probe, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Outcome outcome = once(probe);
        while (!outcome.ok() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(HttpProbe.RETRY_PAUSE.toMillis());
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
