package net.commoninternet.ccci.extensions.lint;

import com.github.dockerjava.core.NameParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.lint.LintedRecipe.Service;
import net.commoninternet.ccci.spi.LintResult;
import org.apiguardian.api.API;

/**
 * abra's rules ({@link AbraRule}) judged on a checked-out tree, without abra: what the swarm driver
 * lints with. Each rule looks where abra's own function looks, with one difference kept on
 * purpose: each fault is reported once, by the rule that names it (a service with no image is
 * R011's, not also untagged; a {@code latest} tag is R004's, not also unlike semver), so a
 * recipe's findings name its faults one each. Two rules need the network, which a run here has
 * not (R006 reads the recipe catalogue, R013 asks git.coopcloud.tech): each says it was not
 * verified here, never that it holds.
 */
@API(status = API.Status.INTERNAL)
public final class AbraRules {

    /**
     * A tag as coopcloud.tech/tagcmp parses it (abra's R005): an optional {@code v}, one to four
     * dot-separated numbers, and an optional {@code -suffix} ({@code 1.22}, {@code v2.3.1},
     * {@code 15.3-alpine}).
     */
    private static final Pattern SEMVER_LIKE = Pattern.compile("v?\\d+(\\.\\d+){0,3}(-[0-9A-Za-z][0-9A-Za-z._-]*)?");

    private AbraRules() {
    }

    /**
     * Every rule's result, keyed by its check name in {@link AbraRule} order.
     *
     * @param lightweightTags the recipe's release tags that are not annotated (R014)
     */
    public static Map<String, LintResult> lint(LintedRecipe recipe, List<String> lightweightTags) throws IOException {
        Map<String, LintResult> results = new LinkedHashMap<>();
        for (AbraRule rule : AbraRule.values()) {
            results.put(rule.check(), recipe.unreadable().isPresent() && needsCompose(rule)
                    ? LintResult.notJudged("not judged: " + recipe.unreadable().get() + " (ccci-compose-parses reports it)")
                    : judge(rule, recipe, lightweightTags));
        }
        return results;
    }

    private static boolean needsCompose(AbraRule rule) {
        return switch (rule) {
            case R006, R007, R008, R013, R014 -> false;
            default -> true;
        };
    }

    private static LintResult judge(AbraRule rule, LintedRecipe recipe, List<String> lightweightTags) throws IOException {
        List<Service> services = List.copyOf(recipe.services().values());
        List<Service> imaged = services.stream().filter(s -> !s.image().isEmpty()).toList();
        return switch (rule) {
            case R001 -> found(rule, recipe.files().stream().filter(f -> !"3.8".equals(f.version()))
                    .map(f -> f.name() + (f.version() == null ? " declares no version" : " has version " + f.version())).toList());
            case R002 -> found(rule, names(services, s -> !s.healthcheck(), "no healthcheck"));
            case R003 -> found(rule, images(imaged, s -> tag(s).isEmpty() && !digested(s), "no tag"));
            case R004 -> found(rule, images(imaged, s -> tag(s).equals("latest"), "the unstable tag latest"));
            case R005 -> found(rule, images(imaged, s -> !tag(s).isEmpty() && !tag(s).equals("latest")
                    && !SEMVER_LIKE.matcher(tag(s)).matches(), "a tag unlike semver"));
            case R006 -> LintResult.notJudged("not verified here: it reads the recipe catalogue on the network"
                    + " (recipes.coopcloud.tech), which a run here cannot reach — " + rule.reason(null));
            case R007 -> metadata(rule, recipe);
            case R008 -> found(rule, recipe.sample().isPresent() || recipe.dir().resolve(LintedRecipe.SAMPLE).toFile().isFile()
                    ? List.of() : List.of("the recipe has no " + LintedRecipe.SAMPLE));
            case R009 -> found(rule, recipe.services().containsKey("app") ? List.of()
                    : List.of("services are " + String.join(", ", recipe.services().keySet())));
            case R010 -> recipe.sample().map(s -> s.containsKey("DOMAIN")).orElse(false)
                    ? found(rule, services.stream().anyMatch(s -> "true".equals(s.labelsOrEmpty().get("traefik.enable"))) ? List.of()
                            : List.of("no service has the deploy label traefik.enable=true"))
                    : LintResult.notJudged("does not apply: " + LintedRecipe.SAMPLE + " sets no DOMAIN, so the recipe needs"
                            + " no route (abra's skip condition for " + rule.ref() + ")");
            case R011 -> found(rule, names(services, s -> s.image().isEmpty(), "no image"));
            case R012 -> found(rule, services.stream().anyMatch(Service::usesConfigs) && !recipe.hasAbraSh()
                    ? List.of("services use configs and the recipe has no abra.sh") : List.of());
            case R013 -> LintResult.notJudged("not verified here: it asks git.coopcloud.tech whether the recipe's repository"
                    + " exists, which a run here cannot reach — " + rule.reason(null));
            case R014 -> found(rule, lightweightTags.isEmpty() ? List.of()
                    : List.of("lightweight tags " + String.join(", ", lightweightTags) + " (git tag -a each)"));
            case R015 -> found(rule, recipe.secrets().stream().filter(s -> s.length() > 12)
                    .map(s -> s + " is " + s.length() + " characters").toList());
            case R016 -> !recipe.services().containsKey("app")
                    ? LintResult.notJudged("not judged: the recipe has no app service (" + AbraRule.R009.check() + ")")
                    : found(rule, recipe.services().get("app").hasLabels() && !recipe.services().get("app").labels().isEmpty()
                            ? List.of() : List.of("the app service has no deploy labels"));
        };
    }

    private static LintResult metadata(AbraRule rule, LintedRecipe recipe) throws IOException {
        var readme = recipe.readme();
        if (readme.isEmpty()) {
            return found(rule, List.of("the recipe has no " + LintedRecipe.README));
        }
        var metadata = ReadmeMetadata.parse(readme.get());
        if (metadata.isEmpty()) {
            return found(rule, List.of(LintedRecipe.README + " has no <!-- metadata --> block"));
        }
        // abra's LintMetadataFilledIn: the category and these features; Status and Tests are not required
        List<String> empty = List.of(ReadmeMetadata.CATEGORY, ReadmeMetadata.IMAGE, ReadmeMetadata.HEALTHCHECK,
                ReadmeMetadata.BACKUPS, ReadmeMetadata.EMAIL, ReadmeMetadata.SSO).stream()
                .filter(k -> !metadata.get().filledIn(k)).toList();
        return found(rule, empty.isEmpty() ? List.of() : List.of("not filled in: " + String.join(", ", empty)));
    }

    private static LintResult found(AbraRule rule, List<String> found) {
        return LintResult.of(found.isEmpty(), rule.critical(), rule.reason(String.join("; ", found)));
    }

    private static List<String> names(List<Service> services, Predicate<Service> bad, String what) {
        List<String> named = services.stream().filter(bad).map(Service::name).toList();
        return named.isEmpty() ? List.of() : List.of(String.join(", ", named) + (named.size() == 1 ? " has " : " have ") + what);
    }

    private static List<String> images(List<Service> services, Predicate<Service> bad, String what) {
        List<String> found = new ArrayList<>();
        services.stream().filter(bad).forEach(s -> found.add(s.name() + " (" + s.image() + ") has " + what));
        return found;
    }

    /** The image's tag as the docker CLI splits it (a registry's port is no tag), without a digest. */
    static String tag(Service service) {
        String image = service.image();
        int digest = image.indexOf('@');
        return NameParser.parseRepositoryTag(digest < 0 ? image : image.substring(0, digest)).tag;
    }

    private static boolean digested(Service service) {
        return service.image().contains("@");
    }
}
