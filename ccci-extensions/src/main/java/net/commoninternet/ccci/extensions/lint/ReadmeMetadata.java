package net.commoninternet.ccci.extensions.lint;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.ListBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;

/**
 * The metadata block of a recipe's README, as Co-op Cloud recipes write it between
 * {@code <!-- metadata -->} and {@code <!-- endmetadata -->}: a list of {@code **Key**: value}
 * items ({@code * **Status**: 2, beta}, {@code - **Healthcheck**: Yes}), read with commonmark-java
 * (a link's or a code span's text is its value's text: {@code [`nginx`](...), 4, upstream} reads
 * {@code nginx, 4, upstream}). Keys are as written; a key with nothing after its colon is present
 * and empty, which is what abra's R007 calls not filled in.
 */
@API(status = API.Status.INTERNAL)
public record ReadmeMetadata(Map<String, String> fields) {

    /** The keys abra reads (its {@code Features} and category). */
    public static final String CATEGORY = "Category";
    public static final String STATUS = "Status";
    public static final String IMAGE = "Image";
    public static final String HEALTHCHECK = "Healthcheck";
    public static final String BACKUPS = "Backups";
    public static final String EMAIL = "Email";
    public static final String TESTS = "Tests";
    public static final String SSO = "SSO";

    private static final Parser PARSER = Parser.builder().build();

    /** What a score claims: yes (a ✅, {@code Yes}, a rating 1-3), no ({@code No}, ❌, none), not applicable, or nothing said. */
    public enum Claim { YES, NO, NOT_APPLICABLE, UNSAID }

    /** The block of {@code readme}, if it has one. */
    public static Optional<ReadmeMetadata> parse(String readme) {
        Node node = PARSER.parse(readme).getFirstChild();
        while (node != null && !isComment(node, "metadata")) {
            node = node.getNext();
        }
        if (node == null) {
            return Optional.empty();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (node = node.getNext(); node != null && !isComment(node, "endmetadata"); node = node.getNext()) {
            if (node instanceof ListBlock list) {
                for (Node item = list.getFirstChild(); item != null; item = item.getNext()) {
                    if (item instanceof ListItem) {
                        field(item).ifPresent(f -> fields.putIfAbsent(f[0], f[1]));
                    }
                }
            }
        }
        return Optional.of(new ReadmeMetadata(Map.copyOf(fields)));
    }

    private static boolean isComment(Node node, String name) {
        return node instanceof HtmlBlock html && html.getLiteral().strip().replaceAll("\\s+", " ").equals("<!-- " + name + " -->");
    }

    /** {@code **Key**: value} as {key, value}; an item of another shape is none. */
    private static Optional<String[]> field(Node item) {
        Node paragraph = item.getFirstChild();
        if (paragraph == null || !(paragraph.getFirstChild() instanceof StrongEmphasis key)) {
            return Optional.empty();
        }
        String rest = text(paragraph, key).strip();
        if (!rest.startsWith(":")) {
            return Optional.empty();
        }
        return Optional.of(new String[] {text(key, null).strip(), rest.substring(1).strip()});
    }

    /** The text of {@code node}'s children after {@code from} (all of them when null). */
    private static String text(Node node, Node from) {
        StringBuilder out = new StringBuilder();
        AbstractVisitor visitor = new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                out.append(text.getLiteral());
            }

            @Override
            public void visit(Code code) {
                out.append(code.getLiteral());
            }

            @Override
            public void visit(SoftLineBreak softLineBreak) {
                out.append(' ');
            }
        };
        for (Node child = from == null ? node.getFirstChild() : from.getNext(); child != null; child = child.getNext()) {
            child.accept(visitor);
        }
        return out.toString();
    }

    /** A key's value, as written ({@code ""} when present and empty); none when the block lacks the key. */
    public Optional<String> get(String key) {
        return fields.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(key)).map(Map.Entry::getValue).findFirst();
    }

    /** Whether the key is there with something after its colon. */
    public boolean filledIn(String key) {
        return get(key).filter(v -> !v.isBlank()).isPresent();
    }

    /** What the key's score claims. */
    public Claim claim(String key) {
        String value = get(key).orElse("").strip().toLowerCase(Locale.ROOT);
        if (value.isEmpty() || value.equals("?")) {
            return Claim.UNSAID;
        }
        if (value.startsWith("n/a") || value.startsWith("na")) {
            return Claim.NOT_APPLICABLE;
        }
        if (value.startsWith("no") || value.startsWith("❌") || value.startsWith("0") || value.startsWith("💣")
                || value.startsWith("❹") || value.startsWith("false")) {
            return Claim.NO;
        }
        return Claim.YES;
    }
}
