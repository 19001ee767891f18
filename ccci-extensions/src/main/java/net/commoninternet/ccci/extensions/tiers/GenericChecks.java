package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.swarm.HttpProbe;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;

/** The generic floor every tier that changes the app checks: still converged, still serving. */
final class GenericChecks {

    private GenericChecks() {
    }

    /** A fresh inspection of the app's stack (spec section 8 rules). */
    static void converged(Deployment deployment) {
        SwarmConvergence.Report now = new SwarmConvergence(deployment.docker()).inspect(deployment.app().stack());
        assertThat(now.converged()).as("every service of the app converged: %s", now.describe()).isTrue();
    }

    /** Real HTTP on HEALTH_PATH, the way the proxy reaches the app, until a HEALTH_OK status or HTTP_TIMEOUT. */
    static void servesHttp(Deployment deployment) throws InterruptedException {
        CiKeys keys = deployment.keys();
        String path = keys.healthPath();
        List<Integer> ok = keys.healthOk();
        HttpProbe probe = deployment.http();
        String stack = deployment.app().stack();
        HttpProbe.Target target = probe.target(stack).orElseThrow(() -> new AssertionError(
                "no service of " + stack + " has traefik.enable=true and a loadbalancer.server.port label,"
                        + " so nothing would route to the app"));
        HttpProbe.Answer answer = probe.await(target, deployment.app().domain(), path, ok,
                Duration.ofSeconds(keys.httpTimeoutSeconds()));
        assertThat(answer.status()).as("GET %s (Host %s) answered %s", target.url(path),
                deployment.app().domain(), answer.detail()).isIn(ok);
    }
}
