package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.spi.RunContext;

/** The generic floor every tier that changes the app checks: still converged, still serving. */
final class GenericChecks {

    static final String HEALTH_PATH = "/";
    static final List<Integer> HEALTH_OK = List.of(200, 301, 302);
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(300);

    private GenericChecks() {
    }

    /** A fresh inspection of the app's stack (spec section 8 rules). */
    static void converged(RunContext run) {
        Deployment deployment = run.get(Deployment.class);
        SwarmConvergence.Report now = new SwarmConvergence(deployment.docker()).inspect(deployment.app().stack());
        assertThat(now.converged()).as("every service of the app converged: %s", now.describe()).isTrue();
    }

    /** Real HTTP on HEALTH_PATH, the way the proxy reaches the app; 404 is never OK. */
    static void servesHttp(RunContext run) throws InterruptedException {
        Deployment deployment = run.get(Deployment.class);
        HttpProbe probe = new HttpProbe(deployment.docker().client());
        String stack = deployment.app().stack();
        HttpProbe.Target target = probe.target(stack).orElseThrow(() -> new AssertionError(
                "no service of " + stack + " has traefik.enable=true and a loadbalancer.server.port label,"
                        + " so nothing would route to the app"));
        HttpProbe.Answer answer = probe.await(stack, target, deployment.app().domain(), HEALTH_PATH, HEALTH_OK, HTTP_TIMEOUT);
        assertThat(answer.status()).as("GET %s (Host %s) answered %s", target.url(HEALTH_PATH),
                deployment.app().domain(), answer.detail()).isIn(HEALTH_OK);
    }
}
