package net.commoninternet.ccci.extensions.driver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The deploy-once rule's verdict and its message, as the run fails with it. */
class DeployOnceTest {

    @Test
    void exactlyTheExpectedDeploysIsNoViolation() {
        assertThat(CountedDeploys.violation(1, 1)).isNull();
        assertThat(CountedDeploys.violation(3, 3)).isNull();
    }

    @Test
    void anyOtherCountIsTheSpecsHardFailure() {
        assertThat(CountedDeploys.violation(2, 1)).startsWith("deploy-count 2!=1: ");
        assertThat(CountedDeploys.violation(0, 1)).startsWith("deploy-count 0!=1: ");
    }
}
