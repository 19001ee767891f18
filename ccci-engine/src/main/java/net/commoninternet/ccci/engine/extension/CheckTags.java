package net.commoninternet.ccci.engine.extension;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestTag;

/**
 * The JUnit tags of a run's nodes: each tier's id on its node and on each of its checks (JUnit's tag
 * filters judge the leaves, and a check's tags are its own), and a check's own tags, what it needs
 * beyond its tier's operation ({@link Check#tags()}, a recipe's {@code @Functional(tags = ...)}). A
 * check's own tag must be a valid JUnit tag and name no tier: a filter by a tier's tag selects that
 * tier, whose operation the run then does, and a check elsewhere carrying it would pull its own tier in.
 */
@API(status = API.Status.INTERNAL)
public final class CheckTags {

    private CheckTags() {
    }

    /** The tags of a tier's node, and of a check-less tier that is itself a test: its id. */
    public static Set<TestTag> of(Tier tier) {
        return Set.of(TestTag.create(tier.id()));
    }

    /** The tags of {@code check} of {@code tier}: its tier's, then its own. */
    public static Set<TestTag> of(Tier tier, Check check) {
        Set<TestTag> tags = new LinkedHashSet<>(of(tier));
        check.tags().stream().map(TestTag::create).forEach(tags::add);
        return tags;
    }

    /** One sentence naming the fix if {@code tags} of the check {@code check} cannot be published; empty if they can. */
    public static Optional<String> problem(String check, Collection<String> tags) {
        List<String> bad = tags.stream().filter(t -> !TestTag.isValid(t) || Tier.fromId(t).isPresent()).toList();
        if (bad.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(check + " has the tag(s) " + String.join(", ", bad.stream().map(t -> "'" + t + "'").toList())
                + ", which cannot be published: a check's own tag names what it needs (e.g. needs-browser), with no"
                + " space, comma, parenthesis, '&', '|' or '!', and is never a tier's (" + String.join(", ",
                        Arrays.stream(Tier.values()).map(Tier::id).toList()) + ": the tier's own tag).");
    }
}
