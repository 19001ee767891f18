package net.commoninternet.ccci.extensions.deployment;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A hook's view of the run's app for one operation; env changes go to the app's env file.
 *
 * @param app the live app; empty before INSTALL's deploy
 */
@API(status = API.Status.INTERNAL)
public record RunHookContext(App created, CiKeys keys, Tier op, Optional<LiveApp> app, Map<String, String> depDomains)
        implements HookContext {

    private static final Logger LOG = LoggerFactory.getLogger(RunHookContext.class);

    @Override
    public String domain() {
        return created.domain();
    }

    @Override
    public List<String> deps() {
        return keys.deps();
    }

    @Override
    public void setEnv(String key, String value) throws Exception {
        if (op != Tier.INSTALL && op != Tier.UPGRADE) {
            throw new IllegalStateException("a " + op.id() + " hook cannot change the app's env: only install and upgrade"
                    + " deploy, so set it in a pre-install or pre-upgrade hook.");
        }
        EnvFile.read(created.envFile()).set(key, value).write(created.envFile());
        LOG.info("pre_{} hook set {} in the app's env", op.id(), key);
    }
}
