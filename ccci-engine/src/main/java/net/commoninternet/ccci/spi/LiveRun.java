package net.commoninternet.ccci.spi;

import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * A run whose app is deployed and converged: what the lifecycle hands the engine to run the tiers
 * with ({@link RunLifecycle.Tiers#run}), so no tier can run before there is an app. The engine
 * gives the recipe's assertions and functional tests its {@link #liveApp()} and its hooks a
 * {@link #hookContext(Tier)}; a lifecycle's own tiers reach the rest of what it made through
 * {@link RunContext#live()}.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface LiveRun {

    /** The deployed app as the recipe's assertions and functional tests see it. */
    LiveApp liveApp();

    /** What a pre-operation hook of {@code op} is given. */
    HookContext hookContext(Tier op);
}
