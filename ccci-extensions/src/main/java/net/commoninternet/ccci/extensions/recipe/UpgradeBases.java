package net.commoninternet.ccci.extensions.recipe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.lifecycle.UpgradeFrom;
import org.apiguardian.api.API;

/**
 * The releases a run upgrades from ({@code ccci.upgrade-from}), chosen once the recipe is fetched:
 * the previous release (the one the {@link UpgradePlan} deploys for the run's own tiers) always
 * first, then the others the setting names, newest first. A base named that cannot be deployed here
 * (no such release tag, not older than the head) stays in the list as a skip with its reason: a
 * matrix never silently loses a base.
 *
 * @param from the setting the bases were chosen by
 * @param bases the previous release first, then the others, newest first
 */
@API(status = API.Status.INTERNAL)
public record UpgradeBases(UpgradeFrom from, List<Base> bases) {

    /** No upgrade at all (UPGRADE not selected, or no release to upgrade from). */
    public static final UpgradeBases NONE = new UpgradeBases(UpgradeFrom.PREVIOUS, List.of());

    /**
     * One base of the matrix: the release, why it is skipped if it is, and what an operator upgrading
     * from it must do by hand ({@link OperatorActions}).
     */
    public record Base(String release, Optional<String> skip, List<OperatorActions.Action> actions) {
        public Base {
            actions = List.copyOf(actions);
        }

        /** A base that is deployed, not yet judged for operator actions. */
        static Base of(RecipeVersion release) {
            return new Base(release.text(), Optional.empty(), List.of());
        }

        Base withActions(List<OperatorActions.Action> found) {
            return new Base(release, skip, found);
        }
    }

    public UpgradeBases {
        bases = List.copyOf(bases);
    }

    /** The bases beyond the previous release: each an upgrade run of its own. */
    public List<Base> others() {
        return bases.isEmpty() ? List.of() : bases.subList(1, bases.size());
    }

    /**
     * The bases {@code from} chooses among {@code older} (the releases older than the head, as
     * {@link RecipeFetch#olderReleases} gives them), with {@code previous} (the upgrade plan's base)
     * first; {@code all} is every release of the recipe, for naming what a list got wrong. No
     * previous release, no bases: there is nothing to upgrade from.
     */
    public static UpgradeBases choose(UpgradeFrom from, Optional<RecipeVersion> previous, List<RecipeVersion> older,
            List<RecipeVersion> all) {
        if (previous.isEmpty()) {
            return new UpgradeBases(from, List.of());
        }
        List<Base> bases = new ArrayList<>(List.of(Base.of(previous.get())));
        List<RecipeVersion> newestFirst = older.stream().sorted(Comparator.reverseOrder()).toList();
        switch (from.kind()) {
            case PREVIOUS -> { }
            case ALL -> newestFirst.forEach(v -> add(bases, Base.of(v)));
            case LAST -> {
                // stable releases before pre-releases: people run stable ones whenever there are some
                List<RecipeVersion> stableFirst = new ArrayList<>(newestFirst.stream().filter(v -> !v.preRelease()).toList());
                stableFirst.addAll(newestFirst.stream().filter(RecipeVersion::preRelease).toList());
                stableFirst.stream().limit(from.count()).forEach(v -> add(bases, Base.of(v)));
            }
            case LIST -> from.releases().forEach(named -> add(bases, named(named, older, all)));
        }
        return new UpgradeBases(from, bases);
    }

    /** A listed release as a base: deployed if it is a release older than the head, else a skip saying why. */
    private static Base named(String named, List<RecipeVersion> older, List<RecipeVersion> all) {
        if (older.stream().anyMatch(v -> v.text().equals(named))) {
            return new Base(named, Optional.empty(), List.of());
        }
        String reason = all.stream().anyMatch(v -> v.text().equals(named))
                ? "release " + named + " is not older than the head: an upgrade from it proves nothing"
                : "no release tag " + named + " in the recipe (its releases: " + String.join(", ",
                        all.stream().map(RecipeVersion::text).toList()) + ")";
        return new Base(named, Optional.of(reason), List.of());
    }

    private static void add(List<Base> bases, Base base) {
        if (bases.stream().noneMatch(b -> b.release().equals(base.release()))) {
            bases.add(base);
        }
    }

    /** The same bases, each deployed one with what an operator upgrading from it must do by hand, by release. */
    UpgradeBases withActions(java.util.Map<String, List<OperatorActions.Action>> found) {
        return new UpgradeBases(from, bases.stream().map(b -> b.withActions(found.getOrDefault(b.release(), List.of())))
                .toList());
    }
}
