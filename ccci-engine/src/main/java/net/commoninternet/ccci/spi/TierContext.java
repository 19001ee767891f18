package net.commoninternet.ccci.spi;

import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * A tier's view of its run: the run, the tier, and the live app the lifecycle made. Only a tier's
 * operation, its checks and its AfterTier callbacks get one, and they run only once the app is
 * deployed: there is no tier context without a live app. What it {@link #attach}es lands on the
 * tier's node of the report.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface TierContext extends RunContext {

    /** The tier this view belongs to. */
    Tier tier();

    /** The deployed app and what the lifecycle lets a tier do with it. */
    LiveRun live();
}
