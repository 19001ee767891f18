package net.commoninternet.ccci.extensions.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import org.junit.jupiter.api.Test;

/**
 * The run-start check of the host's boundaries, on the filter table as {@code iptables-save}
 * printed it after {@code scripts/egress-rules} on this machine kind, and on what an engine says
 * of its runtime: each way a boundary can be missing is one sentence naming the fix.
 */
class EngineBoundaryTest {

    private static final String HOST = "unix:///var/run/docker.sock";

    private static String installed() throws IOException {
        try (InputStream in = EngineBoundaryTest.class.getResourceAsStream("/egress-rules.iptables-save")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theRulesEgressRulesInstallsPass() throws Exception {
        assertThat(EngineBoundary.rulesMissing(HOST, installed())).isEmpty();
    }

    @Test
    void aTableWithoutTheRulesOrWithARuleBeforeThemIsOneSentence() throws Exception {
        String none = installed().lines().filter(l -> !l.contains(EngineBoundary.TAG)).reduce("", (a, b) -> a + b + "\n");
        assertThat(EngineBoundary.rulesMissing(HOST, none)).hasValue("the egress rules are not in place for the engine at "
                + HOST + " (nothing rejects 10.0.0.0/8; nothing rejects 172.16.0.0/12; nothing rejects 192.168.0.0/16; nothing"
                + " rejects 169.254.0.0/16; DOCKER-USER does not send the engine's bridges to them; INPUT does not send the"
                + " engine's bridges to them), so a recipe's container could reach this host, its LAN or a private or"
                + " link-local address: install them (scripts/setup-local-swarm installs it, or scripts/egress-rules alone).");

        String acceptFirst = installed().replaceFirst("-A INPUT ", "-A INPUT -i docker_gwbridge -j ACCEPT\n-A INPUT ");
        assertThat(EngineBoundary.rulesMissing(HOST, acceptFirst)).get().asString().contains("(INPUT has a rule before ccci's)");

        String noMetadata = installed().lines().filter(l -> !l.contains("169.254.0.0/16")).reduce("", (a, b) -> a + b + "\n");
        assertThat(EngineBoundary.rulesMissing(HOST, noMetadata)).get().asString().contains("(nothing rejects 169.254.0.0/16)");
    }

    @Test
    void anEngineWhoseDefaultRuntimeIsNotRunscIsOneSentence() {
        assertThat(EngineBoundary.runtimeMissing(HOST, new DockerEngine.Facts("20.10.24", 1, "runsc", "/usr/bin/runsc"))).isEmpty();
        assertThat(EngineBoundary.runtimeMissing(HOST, new DockerEngine.Facts("20.10.24", 1, "sandbox", "/opt/gvisor/runsc")))
                .isEmpty();
        assertThat(EngineBoundary.runtimeMissing(HOST, new DockerEngine.Facts("20.10.24", 1, "runc", ""))).hasValue("the engine at "
                + HOST + " runs containers with runc, not gVisor's runsc, so a recipe's container shares the host's kernel:"
                + " make runsc the engine's default runtime (scripts/setup-local-swarm installs it).");
    }

    @Test
    void aRemoteEnginesRulesCannotBeReadFromHere() throws Exception {
        assertThat(EngineBoundary.egressMissing("tcp://192.0.2.10:2376", new ChildProcesses(Map.of())))
                .hasValueSatisfying(why -> assertThat(why).startsWith("the engine at tcp://192.0.2.10:2376 is remote"));
        assertThat(EngineBoundary.egressMissing("unix:///run/ccci-no-such-engine.sock", new ChildProcesses(Map.of())))
                .hasValueSatisfying(why -> assertThat(why).startsWith("no process of this host listens on"));
    }
}
