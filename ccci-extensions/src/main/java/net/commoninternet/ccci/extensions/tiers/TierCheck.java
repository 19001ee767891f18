package net.commoninternet.ccci.extensions.tiers;

import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.spi.Check;

/** A check of the live deployment: what every generic check of ccci's tiers is. */
@FunctionalInterface
interface TierCheck {

    void verify(Deployment deployment) throws Exception;

    /** The check named {@code name}, run against the run's deployment. */
    static Check named(String name, TierCheck body) {
        return Check.of(name, run -> body.verify(Deployment.of(run)));
    }
}
