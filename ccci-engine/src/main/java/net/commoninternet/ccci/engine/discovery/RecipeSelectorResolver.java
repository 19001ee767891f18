package net.commoninternet.ccci.engine.discovery;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCi;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.engine.config.Suggestions;
import net.commoninternet.ccci.engine.descriptor.CcciEngineDescriptor;
import net.commoninternet.ccci.engine.descriptor.CheckDescriptor;
import net.commoninternet.ccci.engine.descriptor.RecipeRunDescriptor;
import net.commoninternet.ccci.engine.descriptor.TierDescriptor;
import net.commoninternet.ccci.engine.execution.RecipeUnderTest;
import net.commoninternet.ccci.engine.extension.CheckTags;
import net.commoninternet.ccci.engine.extension.Plugins;
import net.commoninternet.ccci.engine.extension.PreOperationHooks;
import net.commoninternet.ccci.engine.extension.RecipeChecks;
import net.commoninternet.ccci.lifecycle.DependencyKeys;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.DiscoveryIssue.Severity;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.SelectorResolver;

/**
 * Resolves the two ways a run is selected: a {@link RecipeCi} anchor class (Surefire, an IDE
 * running the class) together with {@code ccci.recipe}; or a unique id
 * {@code [engine:ccci]/[recipe:x]/[tier:y]/[check:z]} (an IDE or the console launcher rerunning
 * one part). A user's mistake becomes one {@link DiscoveryIssue}, never an exception.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeSelectorResolver implements SelectorResolver {

    private final SettingsReader reader;
    private final Plugins plugins;
    private final DiscoveryIssueReporter issues;

    public RecipeSelectorResolver(SettingsReader reader, Plugins plugins, DiscoveryIssueReporter issues) {
        this.reader = reader;
        this.plugins = plugins;
        this.issues = issues;
    }

    @Override
    public Resolution resolve(ClassSelector selector, Context context) {
        Class<?> anchor = selector.getJavaClass();
        if (!AnnotationSupport.isAnnotated(anchor, RecipeCi.class)) {
            return unresolved();
        }
        List<String> recipes = reader.recipes();
        if (recipes.isEmpty()) {
            issues.reportIssue(DiscoveryIssue.builder(Severity.INFO, "no recipe selected, so no recipe CI run:"
                    + " pass -Drecipe=<name> (or -D" + Constants.RECIPE + "=<name>; several: a,b,c; every recipe: "
                    + Constants.ALL_RECIPES + ") to run one.")
                    .source(ClassSource.from(anchor)));
            return unresolved();
        }
        Optional<List<String>> names = RecipeSelection.expand(reader, recipes, this::error);
        if (names.isEmpty()) {
            return unresolved();
        }
        Set<Match> matches = new LinkedHashSet<>();
        for (String recipe : names.get()) {
            Resolution run = resolveRun(recipe, ClassSource.from(anchor), Optional.empty(), Optional.empty(), context);
            matches.addAll(run.getMatches());
        }
        return matches.isEmpty() ? unresolved() : Resolution.matches(matches);
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        UniqueId id = selector.getUniqueId();
        List<UniqueId.Segment> segments = id.getSegments();
        if (segments.size() < 2 || !segments.get(0).getValue().equals(CcciEngineDescriptor.ENGINE_ID)) {
            return unresolved();
        }
        if (!segments.get(1).getType().equals(RecipeRunDescriptor.SEGMENT)
                || (segments.size() > 2 && !segments.get(2).getType().equals(TierDescriptor.SEGMENT))
                || (segments.size() > 3 && !segments.get(3).getType().equals(CheckDescriptor.SEGMENT))
                || segments.size() > 4) {
            return error("unique id " + id + " is not a ccci id: expected"
                    + " [engine:ccci]/[recipe:<name>]/[tier:<tier>]/[check:<check>].");
        }
        Optional<Tier> tier = Optional.empty();
        if (segments.size() > 2) {
            String name = segments.get(2).getValue();
            tier = Tier.fromId(name);
            if (tier.isEmpty()) {
                List<String> valid = Arrays.stream(Tier.values()).map(Tier::id).collect(Collectors.toList());
                return error("unique id " + id + " names unknown tier '" + name + "': valid are "
                        + String.join(", ", valid) + "." + Suggestions.didYouMean(name, valid));
            }
        }
        Optional<String> check = segments.size() > 3 ? Optional.of(segments.get(3).getValue()) : Optional.empty();
        return resolveRun(segments.get(1).getValue(), null, tier, check, context);
    }

    private Resolution resolveRun(String recipe, TestSource source, Optional<Tier> onlyTier, Optional<String> onlyCheck,
            Context context) {
        Optional<RunSettings> read = RecipeSelection.settings(reader, recipe, p -> issues.reportIssue(
                DiscoveryIssue.builder(Severity.ERROR, p).source(Optional.ofNullable(source))));
        if (read.isEmpty()) {
            return unresolved();
        }
        RunSettings settings = read.get();
        RecipeCatalog catalog = new RecipeCatalog(settings.paths().recipesDir());
        Optional<RecipeCustomization> customization = plugins.customization(recipe);
        CiKeys keys = CiKeys.defaults();
        Map<String, CiKeys> dependencyKeys = new HashMap<>();
        if (customization.isPresent()) {
            CiKeysParser.Result parsed = CiKeysParser.parse(recipe, customization.get().keys(),
                    key -> Suggestions.didYouMean(key, CiKeys.KNOWN));
            List<String> problems = new ArrayList<>(parsed.problems());
            problems.addAll(RecipeChecks.problems(customization.get()));
            problems.addAll(PreOperationHooks.problems(customization.get()));
            if (!problems.isEmpty()) {
                problems.forEach(p -> issues.reportIssue(DiscoveryIssue.builder(Severity.ERROR, p)
                        .source(ClassSource.from(customization.get().getClass()))));
                return unresolved();
            }
            keys = parsed.keys().orElseThrow();
            for (String dep : keys.deps()) {
                if (!SettingsReader.RECIPE_NAME.matcher(dep).matches() || !catalog.contains(dep)) {
                    problems.add("CI key DEPS of " + recipe + " names '" + dep + "', which is not a recipe in "
                            + settings.paths().recipesDir() + ": available are " + String.join(", ", catalog.names()) + "."
                            + Suggestions.didYouMean(dep, catalog.names()));
                    continue;
                }
                Optional<RecipeCustomization> depCustomization = plugins.customization(dep);
                if (depCustomization.isPresent()) {
                    CiKeysParser.Result depKeys = CiKeysParser.parse(dep, depCustomization.get().keys(),
                            key -> Suggestions.didYouMean(key, CiKeys.KNOWN));
                    problems.addAll(depKeys.problems());
                    depKeys.keys().ifPresent(k -> dependencyKeys.put(dep, k));
                }
            }
            if (!problems.isEmpty()) {
                problems.forEach(p -> issues.reportIssue(DiscoveryIssue.builder(Severity.ERROR, p)
                        .source(ClassSource.from(customization.get().getClass()))));
                return unresolved();
            }
            for (String ignored : keys.notActedOn()) {
                issues.reportIssue(DiscoveryIssue.builder(Severity.WARNING, "CI key " + ignored + " of " + recipe
                        + " is recorded but not acted on by this ccci (there is no browser on CI hosts);"
                        + " the run goes on without it.").source(ClassSource.from(customization.get().getClass())));
            }
        }
        Set<Tier> tiers = onlyTier.map(EnumSet::of).orElseGet(() -> EnumSet.copyOf(settings.stages()));
        if (onlyCheck.isPresent()) {
            List<String> names = checks(onlyTier.orElseThrow(), settings, customization)
                    .stream().map(Check::name).collect(Collectors.toList());
            if (!names.contains(onlyCheck.get())) {
                return error("tier " + onlyTier.get().id() + " has no check '" + onlyCheck.get() + "': its checks are "
                        + (names.isEmpty() ? "none" : String.join(", ", names)) + "." + Suggestions.didYouMean(onlyCheck.get(), names));
            }
        }
        // a tier's checks publish their tags (CheckTags): one a tag filter could not read fails here, not at the run
        List<String> untaggable = new ArrayList<>();
        for (Tier tier : tiers) {
            for (Check check : checks(tier, settings, customization)) {
                CheckTags.problem(recipe + " > " + tier.id() + " > " + check.name(), check.tags()).ifPresent(untaggable::add);
            }
        }
        if (!untaggable.isEmpty()) {
            untaggable.forEach(p -> issues.reportIssue(DiscoveryIssue.create(Severity.ERROR, p)));
            return unresolved();
        }
        CiKeys runKeys = keys;
        RecipeUnderTest underTest = new RecipeUnderTest(catalog.source(recipe), runKeys, customization,
                new DependencyKeys(dependencyKeys));
        Optional<RecipeRunDescriptor> run = context.addToParent(parent -> Optional.of(new RecipeRunDescriptor(
                parent.getUniqueId().append(RecipeRunDescriptor.SEGMENT, recipe), settings, underTest, source)));
        if (run.isEmpty()) {
            return unresolved();
        }
        for (Tier tier : tiers) {
            Optional<TierPlugin> plugin = plugins.tier(tier);
            TierDescriptor tierNode = child(run.get(), run.get().getUniqueId().append(TierDescriptor.SEGMENT, tier.id()),
                    uid -> new TierDescriptor(uid, tier, plugin, source, runKeys.expectedNotApplicable(tier)));
            // A tier the recipe declares not applicable gets no checks: a plain TEST, so Surefire
            // reports it as skipped with its reason (a skipped container it would not report).
            List<Check> tierChecks = runKeys.expectedNotApplicable(tier).isPresent() ? List.of()
                    : checks(tier, settings, customization);
            for (Check check : tierChecks) {
                if (onlyCheck.isEmpty() || onlyCheck.get().equals(check.name())) {
                    child(tierNode, tierNode.getUniqueId().append(CheckDescriptor.SEGMENT, check.name()),
                            uid -> new CheckDescriptor(uid, check, recipe, tier.id(), source));
                }
            }
        }
        return Resolution.match(Match.exact(run.get()));
    }

    /**
     * The tier's generic checks (its plugin's, for this run's driver), then the recipe's own for that
     * tier, then its plugin's last checks.
     */
    private List<Check> checks(Tier tier, RunSettings settings, Optional<RecipeCustomization> customization) {
        List<Check> checks = new ArrayList<>(plugins.tier(tier).map(p -> p.checks(plugins.drivers().get(settings.driver())))
                .orElse(List.of()));
        customization.ifPresent(c -> checks.addAll(RecipeChecks.of(c, tier)));
        plugins.tier(tier).ifPresent(p -> checks.addAll(p.lastChecks()));
        return checks;
    }

    /** The child with that id, created once: two selectors of one run share its nodes. */
    @SuppressWarnings("unchecked")
    private static <T extends TestDescriptor> T child(TestDescriptor parent, UniqueId id,
            Function<UniqueId, T> creator) {
        Optional<? extends TestDescriptor> existing = parent.getChildren().stream()
                .filter(c -> c.getUniqueId().equals(id)).findFirst();
        if (existing.isPresent()) {
            return (T) existing.get();
        }
        T created = creator.apply(id);
        parent.addChild(created);
        return created;
    }

    private Resolution error(String message) {
        issues.reportIssue(DiscoveryIssue.create(Severity.ERROR, message));
        return unresolved();
    }
}
