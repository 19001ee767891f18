package net.commoninternet.ccci.extensions.secrets;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The secret values of a run as they can be printed, and the masking of every one of those forms in
 * a text: the value itself; reversed; as hex (lower and upper case), percent-encoded (every byte, or
 * as a URL form encodes it) and base64 (standard and URL-safe, at each of the three alignments a
 * value can have inside a longer encoded text); each of those reversed; and any of them split by
 * whitespace, control or format characters, or over lines.
 *
 * <p>A best effort, not a boundary: a recipe that holds a value can always print it in a form nobody
 * listed (XOR, another base, every other character). What it catches: a value of at least
 * {@link #MIN_FORMS} characters is found through every run of {@link #WINDOW} consecutive characters
 * of any of its forms, in the text with its whitespace and controls taken out; so a form cut into
 * pieces (over lines, between words) has each piece of {@link #WINDOW} characters or more masked,
 * and a shorter piece is not. Shorter values (down to {@link RedactedConsole#MIN_SECRET}) are masked
 * only as written, as before: a window of a short value would mask common text.
 *
 * <p>How: each window of each form is kept as a 64-bit polynomial hash, in a sorted array, and as one
 * bit of a table for the fast "no" that almost every line gets; the text's windows are hashed
 * rolling, so a line costs one pass whatever the number of secrets. A hash is a window: a false hit
 * (for a window of the text, about one chance in 10^15 per secret) masks twelve innocent characters, which is the safe side.
 */
final class SecretForms {

    /** Values at least this long are looked for in every form and in pieces (generated secrets are 32). */
    static final int MIN_FORMS = 12;
    /** The shortest piece of a form that is recognised: 12 characters of a random value are 60 bits and more. */
    static final int WINDOW = 12;

    private static final long BASE = 0x9E3779B97F4A7C15L; // odd: the hash of a window is a polynomial mod 2^64
    private static final long BASE_POW; // BASE^(WINDOW-1), to drop a window's first character
    private static final int BLOOM_BITS = 1 << 20;

    static {
        long pow = 1;
        for (int i = 1; i < WINDOW; i++) {
            pow *= BASE;
        }
        BASE_POW = pow;
    }

    static final SecretForms NONE = new SecretForms(List.of(), new long[0], 0);

    /** Values too short for forms, masked as written, longest first. */
    private final List<String> whole;
    /** The hash of every window of every form of the long values, sorted. */
    private final long[] windows;
    private final long[] bloom;
    /** The longest form: how much a cut line must hold back so no form is split by the cut. */
    private final int longest;

    private SecretForms(List<String> whole, long[] windows, int longest) {
        this.whole = whole;
        this.windows = windows;
        this.longest = longest;
        this.bloom = new long[windows.length == 0 ? 0 : BLOOM_BITS / 64];
        for (long h : windows) {
            bloom[bloomIndex(h) >>> 6] |= 1L << bloomIndex(h);
        }
    }

    /** The forms of {@code values}, each already a maskable one ({@link RedactedConsole#maskable}). */
    static SecretForms of(Collection<String> values) {
        List<String> whole = new ArrayList<>();
        Set<Long> windows = new HashSet<>();
        int longest = 0;
        for (String value : new LinkedHashSet<>(values)) {
            longest = Math.max(longest, value.length());
            if (compact(value).length() < MIN_FORMS) {
                whole.add(value);
                continue;
            }
            for (String form : forms(value)) {
                String compact = compact(form);
                longest = Math.max(longest, form.length());
                for (int i = 0; i + WINDOW <= compact.length(); i++) {
                    windows.add(hash(compact, i));
                }
            }
        }
        whole.sort(Comparator.comparingInt(String::length).reversed());
        long[] sorted = windows.stream().mapToLong(Long::longValue).sorted().toArray();
        return new SecretForms(List.copyOf(whole), sorted, longest);
    }

    /** The forms of one value, as listed in the class comment. */
    static Set<String> forms(String value) {
        Set<String> forms = new LinkedHashSet<>();
        for (String base : List.of(value, reversed(value))) {
            byte[] bytes = base.getBytes(StandardCharsets.UTF_8);
            forms.add(base);
            String hex = HexFormat.of().formatHex(bytes);
            forms.add(hex);
            forms.add(hex.toUpperCase(java.util.Locale.ROOT));
            StringBuilder percent = new StringBuilder();
            for (int i = 0; i < hex.length(); i += 2) {
                percent.append('%').append(hex, i, i + 2);
            }
            forms.add(percent.toString());
            forms.add(percent.toString().toUpperCase(java.util.Locale.ROOT));
            forms.add(URLEncoder.encode(base, StandardCharsets.UTF_8));
            forms.addAll(base64(bytes, Base64.getEncoder()));
            forms.addAll(base64(bytes, Base64.getUrlEncoder()));
        }
        for (String form : new ArrayList<>(forms)) {
            forms.add(reversed(form));
        }
        return forms;
    }

    /**
     * The characters of {@code bytes}' base64 that do not depend on what comes before or after it,
     * at each of the three places it can start in a group of three bytes.
     */
    private static List<String> base64(byte[] bytes, Base64.Encoder encoder) {
        List<String> cores = new ArrayList<>();
        for (int lead = 0; lead < 3; lead++) {
            byte[] shifted = new byte[lead + bytes.length];
            System.arraycopy(bytes, 0, shifted, lead, bytes.length);
            String encoded = encoder.withoutPadding().encodeToString(shifted);
            int from = (lead * 8 + 5) / 6; // the first character whose six bits are all the value's
            int to = (lead + bytes.length) * 8 / 6; // past the last one
            if (to > from) {
                cores.add(encoded.substring(from, Math.min(to, encoded.length())));
            }
        }
        return cores;
    }

    private static String reversed(String text) {
        return new StringBuilder(text).reverse().toString();
    }

    /** What the text is seen as: without whitespace, controls and format characters (a form split by them is found). */
    private static boolean skipped(char c) {
        if (c > ' ' && c < 0x7F) {
            return false; // printable ASCII: almost every character of a log
        }
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || UntrustedText.unsafe(c);
    }

    private static String compact(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            if (!skipped(text.charAt(i))) {
                out.append(text.charAt(i));
            }
        }
        return out.toString();
    }

    private static long hash(CharSequence text, int from) {
        long h = 0;
        for (int i = from; i < from + WINDOW; i++) {
            h = h * BASE + text.charAt(i);
        }
        return h;
    }

    private static int bloomIndex(long hash) {
        return (int) (hash >>> 44); // the top 20 bits: the low bits of a polynomial hash mod 2^64 mix poorly
    }

    /** The longest form of any value (0 without values). */
    int longest() {
        return longest;
    }

    /** {@code text} with every form of every value, and every piece of {@link #WINDOW} characters or more of one, masked. */
    String mask(String text) {
        boolean[] masked = masked(text);
        return masked == null ? text : render(text, masked, 0, text.length());
    }

    /** Which characters of {@code text} belong to a form of a value (null: none). */
    boolean[] masked(String text) {
        boolean[] masked = null;
        for (String value : whole) {
            for (int at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
                masked = masked == null ? new boolean[text.length()] : masked;
                Arrays.fill(masked, at, at + value.length(), true);
            }
        }
        return windows.length == 0 || text.length() < WINDOW ? masked : maskWindows(text, masked);
    }

    /** {@code text} from {@code from} to {@code to}, each run of masked characters one {@link SecretMasking#MASK}. */
    static String render(String text, boolean[] masked, int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            if (!masked[i]) {
                out.append(text.charAt(i));
            } else if (i == from || !masked[i - 1]) {
                out.append(SecretMasking.MASK);
            }
        }
        return out.toString();
    }

    /**
     * One pass over the text's characters that are not skipped, hashing the last {@link #WINDOW} of
     * them rolling; the positions and characters of those last few are kept in a ring, so a hit masks
     * from the first of them to the last, whitespace between included, without a copy of the text.
     */
    private boolean[] maskWindows(String text, boolean[] found) {
        boolean[] masked = found;
        int[] at = new int[WINDOW];
        char[] last = new char[WINDOW];
        long h = 0;
        int seen = 0;
        int slot = 0; // where the next character goes; once the ring is full, the window's first is there
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (skipped(c)) {
                continue;
            }
            h = (seen >= WINDOW ? h - last[slot] * BASE_POW : h) * BASE + c;
            last[slot] = c;
            at[slot] = i;
            slot = slot + 1 == WINDOW ? 0 : slot + 1;
            if (++seen >= WINDOW) {
                int bit = bloomIndex(h);
                if ((bloom[bit >>> 6] & (1L << bit)) != 0 && Arrays.binarySearch(windows, h) >= 0) {
                    masked = masked == null ? new boolean[text.length()] : masked;
                    Arrays.fill(masked, at[slot], i + 1, true);
                }
            }
        }
        return masked;
    }

}
