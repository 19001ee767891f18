package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.lifecycle.UpgradeFrom;
import org.apiguardian.api.API;

/**
 * How this run upgrades, decided before the app exists: the base release deployed first, the
 * head commit redeployed in place by the UPGRADE tier, and the version label the head declares
 * (what the deployed app must show once upgraded). Without a base the UPGRADE tier is a
 * structural skip with {@code reason}.
 */
@API(status = API.Status.INTERNAL)
public record UpgradePlan(String headCommit, Optional<String> headVersion, Optional<String> headRelease, String reason,
        UpgradeBases bases) {

    public UpgradePlan {
        java.util.Objects.requireNonNull(bases, "bases");
    }

    /** An upgrade from {@code base} alone (or none), with no operator actions judged. */
    public UpgradePlan(Optional<RecipeVersion> base, String headCommit, Optional<String> headVersion,
            Optional<String> headRelease, String reason) {
        this(headCommit, headVersion, headRelease, reason, base.map(b -> new UpgradeBases(UpgradeFrom.PREVIOUS,
                List.of(new UpgradeBases.Base(b.text(), Optional.empty(), List.of())))).orElse(UpgradeBases.NONE));
    }

    /** The same upgrade from {@code base} alone: an upgrade run of the matrix. */
    public UpgradePlan from(UpgradeBases.Base base) {
        return new UpgradePlan(headCommit, headVersion, headRelease, "upgrade from " + base.release(),
                new UpgradeBases(bases.from(), List.of(base)));
    }

    /** The release deployed first for the run's own tiers: the previous one, the first of the bases. */
    public Optional<RecipeVersion> base() {
        return bases.bases().isEmpty() ? Optional.empty() : RecipeVersion.parse(bases.bases().get(0).release());
    }

    /** As {@link #resolve(RecipeFetch, RecipeFetch.Fetched, boolean, Optional, UpgradeFrom)}, from the previous release alone. */
    public static UpgradePlan resolve(RecipeFetch fetch, RecipeFetch.Fetched tree, boolean upgrade, Optional<String> baseOverride)
            throws IOException, InterruptedException {
        return resolve(fetch, tree, upgrade, baseOverride, UpgradeFrom.PREVIOUS);
    }

    /**
     * The head's version label and release tag, always; a base only when {@code upgrade} is
     * selected, and then the bases {@code from} chooses with what an operator upgrading from each
     * must do by hand. Called while the tree is still at the head.
     */
    public static UpgradePlan resolve(RecipeFetch fetch, RecipeFetch.Fetched tree, boolean upgrade, Optional<String> baseOverride,
            UpgradeFrom from) throws IOException, InterruptedException {
        Optional<String> headVersion = fetch.atHead(tree, "compose.yml").flatMap(UpgradePlan::versionLabel);
        Optional<String> headRelease = fetch.releaseAtHead(tree).map(RecipeVersion::text);
        if (baseOverride.isPresent() && baseOverride.equals(headRelease)) {
            throw new IllegalStateException("UPGRADE_BASE_VERSION " + baseOverride.get() + " is the head itself: an upgrade"
                    + " from a version to itself proves nothing; name an older release.");
        }
        if (baseOverride.isPresent() && tree.releases().stream().noneMatch(v -> v.text().equals(baseOverride.get()))) {
            throw new IllegalStateException("UPGRADE_BASE_VERSION " + baseOverride.get() + " is not a release of the recipe:"
                    + " its releases are " + tree.releases() + ".");
        }
        Optional<RecipeVersion> base = !upgrade ? Optional.empty()
                : baseOverride.isPresent() ? baseOverride.flatMap(RecipeVersion::parse) : fetch.upgradeBase(tree);
        String reason = !upgrade ? "upgrade not selected"
                : base.isPresent() ? "upgrade from " + base.get() : "no release older than the head to upgrade from";
        UpgradeBases bases = !upgrade ? UpgradeBases.NONE
                : OperatorActions.judge(UpgradeBases.choose(from, base, fetch.olderReleases(tree), tree.releases()), fetch, tree);
        return new UpgradePlan(tree.commit(), headVersion, headRelease, reason, bases);
    }

    /**
     * The version label of a compose file's text, read from its parsed YAML (a commented-out label
     * never wins); a compose that does not parse declares none (LINT says why).
     */
    static Optional<String> versionLabel(String compose) {
        try {
            return RecipeLabels.version(RecipeLabels.parse(compose), null);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
