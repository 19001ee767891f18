package net.commoninternet.ccci.testing.helpers;

import java.nio.file.Path;
import java.time.Duration;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.lock.SwarmRecords;

/**
 * Helper process: a run of a simulated runner host. Takes a domain's claim (its flock in
 * {@code lockDir}, then its lease through the manager at {@code socket}) as host {@code hostId}
 * would, prints {@code held <pid>}, and holds it (renewing) until its stdin closes; then releases
 * it cleanly and prints {@code released confirmed=<whether the lease was still its own>}. A lost
 * lease prints {@code lost: <why>}. Arguments: socket lockDir hostId domain ttlSeconds heartbeatSeconds.
 */
public final class LeaseHolder {

    public static void main(String[] args) throws Exception {
        String socket = args[0];
        Path lockDir = Path.of(args[1]);
        String hostId = args[2];
        String domain = args[3];
        AppDomainLease.Timing timing = new AppDomainLease.Timing(Duration.ofSeconds(Long.parseLong(args[4])),
                Duration.ofSeconds(Long.parseLong(args[5])));
        try (DockerEngine engine = DockerEngine.connect(socket)) {
            AppDomainLease leases = new AppDomainLease(new SwarmRecords(engine.http()),
                    new AppDomainLease.Holder(hostId, hostId, lockDir, ProcessHandle.current().pid(), "run-" + hostId),
                    timing, why -> say("lost: " + why));
            DomainClaim claim = DomainClaim.take(lockDir, domain, leases);
            say("held " + ProcessHandle.current().pid());
            while (System.in.read() >= 0) {
                // hold until the test closes our stdin
            }
            boolean confirmed = claim.mayAct();
            claim.release();
            say("released confirmed=" + confirmed);
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
