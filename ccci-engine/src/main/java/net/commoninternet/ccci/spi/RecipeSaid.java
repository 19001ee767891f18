package net.commoninternet.ccci.spi;

import java.util.ArrayList;
import java.util.List;
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

    /** The texts it marks as quoted, as they appear in the message of the failure it rides on. */
    public List<String> texts() {
        return texts;
    }
}
