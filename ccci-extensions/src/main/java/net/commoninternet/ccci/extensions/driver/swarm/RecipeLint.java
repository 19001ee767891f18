package net.commoninternet.ccci.extensions.driver.swarm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.lint.AbraRule;
import net.commoninternet.ccci.extensions.lint.AbraRules;
import net.commoninternet.ccci.extensions.lint.CcciRules;
import net.commoninternet.ccci.extensions.lint.LintedRecipe;
import net.commoninternet.ccci.spi.LintResult;
import org.apiguardian.api.API;

/**
 * The embedded driver's recipe lint: every one of abra's rules under its ref and level
 * ({@link AbraRules}), then ccci's own checks ({@link CcciRules}), on the checked-out tree.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeLint {

    /** The checks, abra's first: {@code R001-compose-version} ... {@code R016-...}, then {@code ccci-...}. */
    public static final List<String> RULES = Stream.concat(Stream.of(AbraRule.values()).map(AbraRule::check),
            CcciRules.CHECKS.stream()).toList();

    private RecipeLint() {
    }

    /**
     * Results per check, in {@link #RULES} order.
     *
     * @param headRelease the release tag at the head, if the head is one
     * @param lightweightTags the recipe's release tags that are not annotated
     */
    public static Map<String, LintResult> lint(Path recipe, Optional<String> headRelease, List<String> lightweightTags)
            throws IOException {
        LintedRecipe read = LintedRecipe.read(recipe);
        Map<String, LintResult> results = new LinkedHashMap<>(AbraRules.lint(read, lightweightTags));
        results.putAll(CcciRules.lint(read, headRelease));
        return results;
    }
}
