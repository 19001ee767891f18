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
 * the upgrade waits as long as the head says), else {@code DEPLOY_TIMEOUT}'s default; and never
 * longer than the host's most ({@code -Dccci.max-deploy-timeout}).
 *
 * <p>Invariant: the recipe may shorten the wait, never lengthen it past the host's bound. The label
 * is the pull request's text, and the wait holds the run's slot, its app lock and its containers
 * (a 24-hour label held them until the command's hard deadline): a longer value is clamped and
 * the clamp said in one line, never trusted and never a refusal (abra itself would wait that long,
 * which is no risk to a recipe whose app converges sooner).
 */
@API(status = API.Status.INTERNAL)
public final class DeployTimeout {

    private static final Logger LOG = LoggerFactory.getLogger(DeployTimeout.class);

    private DeployTimeout() {
    }

    /** What was asked for (as written: a number too long for a long is clamped as it is), and by whom. */
    private record Asked(long seconds, String written, String by) {
        Asked(long seconds, String by) {
            this(seconds, Long.toString(seconds), by);
        }
    }

    /**
     * The wait for {@code app}'s convergence, at most {@code max}.
     *
     * @throws IllegalArgumentException when the label is not a whole number of seconds: one sentence naming the fix
     */
    public static Duration of(CiKeys keys, App app, ChildProcesses children, Duration max)
            throws IOException, InterruptedException {
        Asked asked = asked(keys, app, children);
        if (asked.seconds() > max.toSeconds()) {
            LOG.warn("deploy timeout {} s, this host's most (-Dccci.max-deploy-timeout={}): {} asks for {} s, and a recipe"
                    + " may shorten the wait, never lengthen it", max.toSeconds(), max.toSeconds(), asked.by(), asked.written());
            return max;
        }
        if (asked.by().startsWith("the recipe")) {
            LOG.info("deploy timeout {} s ({})", asked.seconds(), asked.by());
        }
        return Duration.ofSeconds(asked.seconds());
    }

    private static Asked asked(CiKeys keys, App app, ChildProcesses children) throws IOException, InterruptedException {
        if (keys.asMap().containsKey("DEPLOY_TIMEOUT")) {
            return new Asked(keys.deployTimeoutSeconds(), "the customization's DEPLOY_TIMEOUT");
        }
        Asked byDefault = new Asked(keys.deployTimeoutSeconds(), "DEPLOY_TIMEOUT's default");
        Optional<String> label;
        try {
            label = ComposeConfig.of(app, children).recipeLabel(app.stack(), RecipeLabels.TIMEOUT);
        } catch (IOException e) {
            LOG.warn("the deploy timeout label of {} could not be read ({}): waiting DEPLOY_TIMEOUT's default {} s",
                    app.recipe(), e.getMessage(), keys.deployTimeoutSeconds());
            return byDefault;
        }
        if (label.isEmpty()) {
            return byDefault;
        }
        String digits = label.get().strip();
        // any whole number is a wait the host's bound can clamp; one too long for a long is just as clamped
        if (!digits.matches("[0-9]{1,30}") || digits.matches("0+")) {
            throw new IllegalArgumentException("the label coop-cloud.${STACK_NAME}.timeout=" + label.get() + " of "
                    + app.recipe() + " is not a number of seconds: write a whole number (abra waits that long for the"
                    + " deploy), or set DEPLOY_TIMEOUT in the recipe's customization.");
        }
        long seconds = digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
        return new Asked(seconds, digits, "the recipe's coop-cloud." + app.stack() + ".timeout label");
    }
}
