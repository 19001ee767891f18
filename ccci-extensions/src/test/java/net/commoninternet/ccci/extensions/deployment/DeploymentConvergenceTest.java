package net.commoninternet.ccci.extensions.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.spi.Convergence;
import org.junit.jupiter.api.Test;

/** What a tier reads of a stack's convergence ({@link Deployment#of}). */
class DeploymentConvergenceTest {

    @Test
    void anUpdateSwarmRolledBackIsNotConvergedThoughTheStackSettledOnItsOldSpec() {
        SwarmConvergence.Report settled = new SwarmConvergence.Report(true, false, List.of(), List.of(),
                List.of("app_app: swarm rolled its update back (rollback completed)"));

        Convergence seen = Deployment.of(settled);

        assertThat(seen.converged()).isFalse();
        assertThat(seen.description()).isEqualTo("app_app: swarm rolled its update back (rollback completed)");
    }

    @Test
    void aConvergedStackWithNoRollbackIsConverged() {
        Convergence seen = Deployment.of(new SwarmConvergence.Report(true, false, List.of(), List.of(), List.of()));

        assertThat(seen.converged()).isTrue();
        assertThat(seen.description()).isEqualTo("converged");
    }
}
