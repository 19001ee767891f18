package net.commoninternet.ccci.spi;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Marks what a failure's message quotes of the recipe's own words: what its app answered, what its
 * commands, probes and hooks printed. A failure is judged the host's ({@link HostFault}) only on the
 * engine's and ccci's own words, so an app that prints "no space left on device" in the page a check
 * quotes fails its check as the recipe's, and a hook whose output says "OCI runtime" is the hook's
 * failure, not the engine's.
 *
 * <p>It rides on the failure as a suppressed exception (no stack trace of its own), so the failure
 * keeps its type and message; a stack trace shows one line for it. It holds the quoted texts as they
 * appear in the message, never prints them.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class RecipeSaid extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> texts;

    private RecipeSaid(List<String> texts) {
        super("the failure above quotes the recipe's own words (its app's answers, its commands' output); whose fault it"
                + " is was judged without them", null, false, false);
        this.texts = List.copyOf(texts);
    }

    /**
     * {@code failure}, marked as quoting {@code texts} (each as it appears in its message; blank ones
     * are left out).
     */
    public static <T extends Throwable> T quotedIn(T failure, String... texts) {
        Objects.requireNonNull(failure, "failure");
        List<String> kept = new ArrayList<>();
        for (String text : texts) {
            if (text != null && !text.isBlank()) {
                kept.add(text);
            }
        }
        if (!kept.isEmpty()) {
            failure.addSuppressed(new RecipeSaid(kept));
        }
        return failure;
    }

    /** Every text that {@code failure}, its causes and what they suppressed are marked as quoting. */
    public static List<String> in(Throwable failure) {
        List<String> texts = new ArrayList<>();
        collect(failure, texts, new IdentityHashMap<>(), 0);
        return texts;
    }

    private static void collect(Throwable t, List<String> into, Map<Throwable, Boolean> seen, int depth) {
        if (t == null || depth > 20 || seen.put(t, Boolean.TRUE) != null) {
            return;
        }
        if (t instanceof RecipeSaid said) {
            into.addAll(said.texts);
        }
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, into, seen, depth + 1);
        }
        collect(t.getCause(), into, seen, depth + 1);
    }
}
