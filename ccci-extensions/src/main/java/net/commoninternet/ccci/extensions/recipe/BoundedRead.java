package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.io.FileUtils;
import org.apiguardian.api.API;

/**
 * A file of a recipe read whole, within a bound its reader names. The recipe is the pull request's:
 * one 2 GiB file in its tree made a read of it whole throw {@code OutOfMemoryError} in ccci's own JVM.
 *
 * <p>Invariant: ccci never holds more of a recipe's file than the bound: the read itself stops one
 * byte past it (a size looked at first and a read that trusts it would let a file that grows in
 * between through), and a file past the bound is refused in one sentence, never judged in part.
 */
@API(status = API.Status.INTERNAL)
public final class BoundedRead {

    private BoundedRead() {
    }

    /** A file past its reader's bound: one sentence naming the file, the bound and the fix. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message);
        }
    }

    /**
     * The whole of {@code file}, at most {@code max} bytes.
     *
     * @param fix what the recipe should do about a larger one ("shrink it", ...)
     * @throws TooLarge when it holds more
     */
    public static byte[] bytes(Path file, long max, String fix) throws IOException {
        byte[] read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
        }
        if (read.length > max) {
            throw new TooLarge(file + " is larger than " + FileUtils.byteCountToDisplaySize(max) + ", the most ccci reads of"
                    + " it (a recipe's file is read whole or not at all): " + fix + ".");
        }
        return read;
    }

    /** {@link #bytes} as UTF-8 text (malformed bytes replaced). */
    public static String text(Path file, long max, String fix) throws IOException {
        return new String(bytes(file, max, fix), StandardCharsets.UTF_8);
    }
}
