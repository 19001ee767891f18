package net.commoninternet.ccci.spi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/** The app's versions: what the run deploys first and upgrades to, what is deployed now, and the in-place redeploy. */
@API(status = API.Status.EXPERIMENTAL)
public interface Versions {

    /**
     * The upgrade the run tests.
     *
     * @param base the release deployed first; empty when there is no upgrade to test
     * @param head the commit under test, which the upgrade moves to
     * @param headVersion the head's recipe version, if it declares one
     * @param headRelease the release tag at the head, if it is tagged: the head under test, as a
     *     maintainer names it ({@code 1.1.0+1.36.1}), even when its version label was not bumped
     * @param reason why there is no base, when there is none
     */
    record Upgrade(Optional<String> base, String head, Optional<String> headVersion, Optional<String> headRelease,
                   String reason) {
        public Upgrade {
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(head, "head");
            Objects.requireNonNull(headVersion, "headVersion");
            Objects.requireNonNull(headRelease, "headRelease");
        }

        /** An upgrade whose head is not known to be tagged. */
        public Upgrade(Optional<String> base, String head, Optional<String> headVersion, String reason) {
            this(base, head, headVersion, Optional.empty(), reason);
        }
    }

    /**
     * What is deployed, read from the swarm.
     *
     * @param version the recipe version label of the deployed stack, if any
     * @param images each service's image, by compose name
     */
    record Deployed(Optional<String> version, Map<String, String> images) {
        public Deployed {
            Objects.requireNonNull(version, "version");
            images = Map.copyOf(images);
        }
    }

    /**
     * Whether a redeploy rolled out: every service serves its new spec (its tasks of it running past
     * their stability windows, none of an older spec left running), though swarm may still hold the
     * update open for its monitor window ({@link LiveRun#awaitConverged} waits that out).
     *
     * @param description {@code converged}, {@code rolled out; ...} with each service swarm still
     *     holds, or each service's problem
     */
    record Rollout(boolean rolledOut, String description) {
        public Rollout {
            Objects.requireNonNull(description, "description");
        }
    }

    /** The run's upgrade: its base (deployed first) and its head. */
    Upgrade upgrade();

    /** What is deployed now. */
    Deployed deployed();

    /**
     * Moves the app's tree to {@code commit} and redeploys it in place (the same app, not a new
     * deploy in the deploy count), then waits until it rolled out, as long as its deploy timeout
     * says: its checks can look at the new spec while swarm's update monitor window runs, and
     * {@link LiveRun#awaitConverged} gives the verdict once swarm ends the update. A config the
     * commit changed without a new name fails here, naming the version to bump.
     */
    Rollout redeployTo(String commit) throws Exception;
}
