package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import org.apiguardian.api.API;

/**
 * What an operator upgrading from a base release must do by hand, read from the recipe alone before
 * anything is deployed: a key the head's {@code .env.sample} sets that the base's did not and that no
 * compose file of the head gives a default ({@code ${KEY:-x}}: their {@code .env} lacks it), a secret
 * the head's compose declares that the base's did not ({@code abra app secret generate} needed), and a
 * release note between the base and the head (its {@code release/<version>} files, and
 * {@code release/next} for an untagged head) that names a manual step. Findings, never failures.
 */
@API(status = API.Status.INTERNAL)
public final class OperatorActions {

    /** What kind of action. */
    public enum Kind {
        /** A new {@code .env.sample} key without a default. */
        ENV_KEY,
        /** A new secret. */
        SECRET,
        /** A release note naming a manual step. */
        RELEASE_NOTE
    }

    /**
     * One thing to do by hand: its kind, what it is about (the key, the secret, the note's release),
     * and one sentence saying it.
     */
    public record Action(Kind kind, String subject, String sentence) {
    }

    /** What the recipe holds at one release: its {@code .env.sample} and compose files' texts, if any. */
    record Snapshot(Optional<String> envSample, List<String> composes) {
        Snapshot {
            composes = List.copyOf(composes);
        }
    }

    /** A top-level compose file of a recipe ({@code compose.yml}, {@code compose.smtp.yml}, ...). */
    private static final Pattern COMPOSE = Pattern.compile("compose(\\.[A-Za-z0-9_.-]+)?\\.ya?ml");
    /** A reference to a variable in a compose file: {@code $KEY}, {@code ${KEY}}, {@code ${KEY:-x}} ... */
    private static final Pattern REFERENCE = Pattern.compile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)}|([A-Za-z_][A-Za-z0-9_]*))");
    /** A line of a release note that asks for something by hand. */
    static final Pattern MANUAL = Pattern.compile("(?i)\\b(manual(ly)?|by hand|you (must|need to|have to|should)|"
            + "before (upgrading|deploying)|breaking change|migrat(e|ion)|secret (generate|insert)|run `)");
    private static final int MOST_SHOWN = 160;

    private OperatorActions() {
    }

    /**
     * Each deployed base of {@code bases} with what upgrading from it to the head asks of an
     * operator. Called while {@code tree} is at the head (its working files are the head's); each base's
     * files are read from git, the tree stays where it is.
     */
    public static UpgradeBases judge(UpgradeBases bases, RecipeFetch fetch, RecipeFetch.Fetched tree)
            throws IOException, InterruptedException {
        if (bases.bases().isEmpty()) {
            return bases;
        }
        Snapshot head = new Snapshot(read(tree.dir().resolve(".env.sample")), composesAt(tree.dir()));
        Map<RecipeVersion, String> notes = notes(tree.dir().resolve("release"));
        Optional<String> next = read(tree.dir().resolve("release").resolve("next"));
        boolean headIsRelease = fetch.releaseAtHead(tree).isPresent();
        Map<String, List<Action>> found = new HashMap<>();
        for (UpgradeBases.Base base : bases.bases()) {
            if (base.skip().isPresent()) {
                continue;
            }
            String commit = tree.tagTargets().get(base.release());
            Optional<RecipeVersion> version = RecipeVersion.parse(base.release());
            if (commit == null || version.isEmpty()) {
                continue;
            }
            Map<String, String> files = fetch.filesAt(tree, commit, n -> n.equals(".env.sample") || COMPOSE.matcher(n).matches());
            Snapshot atBase = new Snapshot(Optional.ofNullable(files.get(".env.sample")),
                    files.entrySet().stream().filter(e -> COMPOSE.matcher(e.getKey()).matches()).map(Map.Entry::getValue).toList());
            Map<String, String> after = new TreeMap<>();
            notes.forEach((v, text) -> {
                if (v.compareTo(version.get()) > 0) {
                    after.put(v.text(), text);
                }
            });
            if (!headIsRelease) {
                next.ifPresent(text -> after.put("next", text));
            }
            found.put(base.release(), since(atBase, head, after));
        }
        return bases.withActions(found);
    }

    /**
     * What upgrading from {@code base} to {@code head} asks by hand, with the release notes
     * {@code notesAfterBase} (by release, those after the base up to the head).
     */
    static List<Action> since(Snapshot base, Snapshot head, Map<String, String> notesAfterBase) {
        List<Action> actions = new ArrayList<>();
        Set<String> before = keys(base.envSample());
        Set<String> defaulted = defaulted(head.composes());
        for (String key : keys(head.envSample())) {
            if (!before.contains(key) && !defaulted.contains(key)) {
                actions.add(new Action(Kind.ENV_KEY, key, ".env.sample sets " + key + " since this release and no compose"
                        + " file gives it a default: add it to the app's .env before the upgrade."));
            }
        }
        Set<String> secretsBefore = secrets(base.composes());
        for (String secret : secrets(head.composes())) {
            if (!secretsBefore.contains(secret)) {
                actions.add(new Action(Kind.SECRET, secret, "the compose declares the secret " + secret + " since this"
                        + " release: generate it (abra app secret generate) before the upgrade."));
            }
        }
        notesAfterBase.forEach((release, text) -> text.lines().filter(l -> MANUAL.matcher(l).find()).findFirst()
                .ifPresent(line -> actions.add(new Action(Kind.RELEASE_NOTE, release, "the release note of " + release
                        + " names a manual step: \"" + shown(line) + "\"."))));
        return actions;
    }

    /** The keys an env file sets (commented-out assignments are not set); none if it does not parse. */
    private static Set<String> keys(Optional<String> env) {
        if (env.isEmpty()) {
            return Set.of();
        }
        try {
            return new LinkedHashSet<>(EnvFile.parse(env.get(), ".env.sample").values().keySet());
        } catch (EnvFileException e) {
            return Set.of();
        }
    }

    /** The variables every reference of which in {@code composes} carries a default ({@code ${KEY:-x}}, {@code ${KEY-x}}). */
    private static Set<String> defaulted(List<String> composes) {
        Map<String, Boolean> always = new HashMap<>();
        for (String compose : composes) {
            Matcher m = REFERENCE.matcher(compose);
            while (m.find()) {
                String name = m.group(1) != null ? m.group(1) : m.group(3);
                String modifier = m.group(2) == null ? "" : m.group(2);
                boolean hasDefault = modifier.startsWith(":-") || modifier.startsWith("-");
                always.merge(name, hasDefault, Boolean::logicalAnd);
            }
        }
        Set<String> defaulted = new LinkedHashSet<>();
        always.forEach((k, v) -> {
            if (v) {
                defaulted.add(k);
            }
        });
        return defaulted;
    }

    /** The top-level secrets the compose files declare; a file that does not parse declares none (LINT says why). */
    private static Set<String> secrets(List<String> composes) {
        Set<String> secrets = new LinkedHashSet<>();
        for (String compose : composes) {
            try {
                JsonNode declared = RecipeLabels.parse(compose).path("secrets");
                for (Iterator<String> names = declared.fieldNames(); names.hasNext(); ) {
                    secrets.add(names.next());
                }
            } catch (IOException | RuntimeException e) {
                // judged by LINT, not here
            }
        }
        return secrets;
    }

    private static List<String> composesAt(Path dir) throws IOException {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> COMPOSE.matcher(f.getFileName().toString()).matches()).sorted().toList()) {
                read(file).ifPresent(texts::add);
            }
        }
        return texts;
    }

    /** The head's release notes, by release ({@code release/<version>}); none without the folder. */
    private static Map<RecipeVersion, String> notes(Path folder) throws IOException {
        Map<RecipeVersion, String> notes = new TreeMap<>();
        if (!Files.isDirectory(folder)) {
            return notes;
        }
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                Optional<RecipeVersion> v = RecipeVersion.parse(file.getFileName().toString());
                if (v.isPresent()) {
                    read(file).ifPresent(text -> notes.put(v.get(), text));
                }
            }
        }
        return notes;
    }

    /** A regular file of the recipe's, whole, if it is one and within what ccci reads of a recipe's file. */
    private static Optional<String> read(Path file) throws IOException {
        if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.size(file) > RecipeFetch.LISTING_BYTES) {
            return Optional.empty();
        }
        return Optional.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)); // malformed bytes shown as such
    }

    /** A line of the recipe's as one line of a finding: no control characters, at most {@link #MOST_SHOWN} characters. */
    private static String shown(String line) {
        String plain = line.strip().codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return plain.length() <= MOST_SHOWN ? plain : plain.substring(0, MOST_SHOWN) + "…";
    }
}
