package net.commoninternet.ccci.extensions.policy;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long a deploy of the app may take to converge: the customization's {@code DEPLOY_TIMEOUT}
 * if it sets one, else the recipe's own {@code coop-cloud.${STACK_NAME}.timeout} label (seconds,
 * the wait abra's deploy uses), read from the final compose of the tree as it is checked out (so
 * the upgrade waits as long as the head says), else {@code DEPLOY_TIMEOUT}'s default.
 */
@API(status = API.Status.INTERNAL)
public final class DeployTimeout {

    private static final Logger LOG = LoggerFactory.getLogger(DeployTimeout.class);

    private DeployTimeout() {
    }

    public static Duration of(CiKeys keys, App app, ChildProcesses children) throws IOException, InterruptedException {
        if (keys.asMap().containsKey("DEPLOY_TIMEOUT")) {
            return Duration.ofSeconds(keys.deployTimeoutSeconds());
        }
        Optional<String> label;
        try {
            label = ComposeConfig.of(app, children).recipeLabel(app.stack(), RecipeLabels.TIMEOUT);
        } catch (IOException e) {
            LOG.warn("the deploy timeout label of {} could not be read ({}): waiting DEPLOY_TIMEOUT's default {} s",
                    app.recipe(), e.getMessage(), keys.deployTimeoutSeconds());
            return Duration.ofSeconds(keys.deployTimeoutSeconds());
        }
        if (label.isEmpty()) {
            return Duration.ofSeconds(keys.deployTimeoutSeconds());
        }
        long seconds;
        try {
            seconds = Long.parseLong(label.get().strip());
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 1 || seconds > 86_400) {
            throw new IllegalArgumentException("the label coop-cloud.${STACK_NAME}.timeout=" + label.get() + " of "
                    + app.recipe() + " is not a number of seconds: write a whole number (abra waits that long for the"
                    + " deploy), or set DEPLOY_TIMEOUT in the recipe's customization.");
        }
        LOG.info("deploy timeout {} s (the recipe's coop-cloud.{}.timeout label)", seconds, app.stack());
        return Duration.ofSeconds(seconds);
    }
}
