package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.RecipeSaid;
import net.commoninternet.ccci.spi.Versions;

/**
 * How a built-in check says what it expected and what it found: in the recipe's terms (its
 * releases, services, images, URLs, status codes), the way its maintainer would say it, never a
 * library's phrasing or a Java object's {@code toString} ({@code Optional[...]}, {@code Name[field=...]}).
 * A check fails with {@link #failed}: an {@link AssertionError} whose message is that sentence alone.
 */
final class Words {

    /** How much of a head commit names it (as git abbreviates, with room to stay unique). */
    private static final int SHORT_COMMIT = 12;

    private Words() {
    }

    /** The failure of a check: {@code sentence} is all a report shows of it. */
    static AssertionError failed(String sentence) {
        return new AssertionError(sentence);
    }

    /**
     * As {@link #failed(String)}, for a sentence that quotes {@code recipeSaid} (what the app answered,
     * what its probe or command printed, as the sentence has it): whose fault the failure is is judged
     * without those words ({@link RecipeSaid}).
     */
    static AssertionError failed(String sentence, String... recipeSaid) {
        return RecipeSaid.quotedIn(new AssertionError(sentence), recipeSaid);
    }

    /** A deployed or declared version: the label's text, or that there is none. */
    static String version(Optional<String> label) {
        return label.orElse("an app without a version label");
    }

    /** The head under test as its maintainer names it: its release tag, or its commit when it is not tagged. */
    static String head(Versions.Upgrade plan) {
        return plan.headRelease().orElseGet(() -> "commit " + plan.head().substring(0, Math.min(SHORT_COMMIT,
                plan.head().length())));
    }

    /** Each service and its image, by name: {@code app ccci.local/busybox:1, db postgres:15}; {@code no service} when none. */
    static String images(Map<String, String> images) {
        return images.isEmpty() ? "no service" : new TreeMap<>(images).entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /** What changed between two services-to-images maps: {@code app ccci.local/busybox:1 -> ccci.local/busybox:1.1}. */
    static String imageChanges(Map<String, String> before, Map<String, String> after) {
        TreeMap<String, String> all = new TreeMap<>(before);
        after.forEach(all::putIfAbsent);
        String changes = all.keySet().stream().filter(s -> !String.valueOf(before.get(s)).equals(String.valueOf(after.get(s))))
                .map(s -> s + " " + (before.containsKey(s) ? before.get(s) : "(none)") + " -> "
                        + (after.containsKey(s) ? after.get(s) : "(removed)"))
                .collect(Collectors.joining(", "));
        return changes.isEmpty() ? "the same images" : changes;
    }

    /** Statuses as a sentence lists them: {@code 200, 301 or 302}. */
    static String statuses(List<Integer> statuses) {
        List<String> each = statuses.stream().map(String::valueOf).toList();
        return each.size() < 2 ? String.join("", each)
                : String.join(", ", each.subList(0, each.size() - 1)) + " or " + each.get(each.size() - 1);
    }

    /**
     * What an HTTP wait last got: the status line's code and reason ({@code 502 Bad Gateway}), or
     * why nothing answered ({@code nothing (wget: can't connect to remote host: Connection refused)}).
     */
    static String answered(Probes.Answer answer) {
        if (answer.status() < 0) {
            return "nothing (" + oneLine(answer.detail()) + ")";
        }
        return answer.detail().lines().map(String::strip).filter(l -> l.startsWith("HTTP/") && l.indexOf(' ') > 0)
                .reduce((first, last) -> last).map(l -> l.substring(l.indexOf(' ') + 1)).orElse(String.valueOf(answer.status()));
    }

    /** What an HTTP probe expects, as a clause ({@code ; HEALTH_OK expects 200, 301 or 302}); nothing for another probe. */
    static String expects(CiKeys.Probe probe, CiKeys keys) {
        return probe.kind() == CiKeys.Probe.Kind.HTTP ? "; HEALTH_OK expects " + statuses(keys.healthOk()) : "";
    }

    /** A command's output as a clause: {@code : <output>} on one line, or nothing for no output. */
    static String output(String body) {
        String text = oneLine(body);
        return text.isEmpty() ? "" : ": " + text;
    }

    /** {@code text} on one line, its runs of white space as one space. */
    static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ");
    }
}
