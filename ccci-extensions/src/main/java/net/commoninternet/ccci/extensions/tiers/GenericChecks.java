package net.commoninternet.ccci.extensions.tiers;

import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.TierContext;

/** The generic floor every tier that changes the app checks: still converged, still serving. */
final class GenericChecks {

    private GenericChecks() {
    }

    /** A fresh inspection of the app's stack (spec section 8 rules). */
    static void converged(TierContext tier) {
        Convergence now = tier.live().inspect();
        if (!now.converged()) {
            throw Words.failed("not every service of the app is running its current spec: " + now.description());
        }
    }

    /**
     * Real HTTP on HEALTH_PATH, the way the proxy reaches the app: its first answer within HTTP_TIMEOUT
     * (while nothing answers, the wait goes on) must be a HEALTH_OK status. An error status fails this
     * try however the app answers next, and the engine tries the check again ({@code ccci.check-attempts}):
     * an app that answers 502 and then 200 is flaky, never green.
     */
    static void servesHttp(TierContext tier) throws InterruptedException {
        CiKeys keys = tier.keys();
        List<Integer> ok = keys.healthOk();
        String domain = tier.live().app().domain();
        Probes.Answer answer = tier.live().probes().firstAnswer(keys.healthPath(), Duration.ofSeconds(keys.httpTimeoutSeconds()))
                .orElseThrow(() -> new AssertionError("no service of the app " + domain + " has traefik.enable=true and a"
                        + " loadbalancer.server.port label, so nothing would route to the app"));
        if (!ok.contains(answer.status())) {
            String said = Words.answered(answer);
            throw Words.failed("GET " + keys.healthPath() + " of " + domain + " (sent to " + answer.url() + ", as the proxy"
                    + " would) answered " + said + " until HTTP_TIMEOUT " + keys.httpTimeoutSeconds()
                    + " s ran out; HEALTH_OK expects " + Words.statuses(ok), said);
        }
    }
}
