package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.lifecycle.HostVariables;
import org.apache.commons.io.FileUtils;
import org.apache.commons.io.file.PathUtils;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the recipe under test into the run's own tree, {@code $ABRA_DIR/recipes/<recipe>}, as a
 * git repository checked out at the ref under test. Sources come in three shapes:
 * <ul>
 *   <li>a git repository: cloned, then the ref checked out;
 *   <li>a folder with {@code versions/<version>/} trees (how the bundled recipes are kept, since a
 *       nested {@code .git} cannot be committed): each version committed and tagged in order,
 *       with fixed dates so the commit ids, and so the run domain, are the same on every host;
 *   <li>a plain recipe folder ({@code compose.yml} at its top): committed once as it is.
 * </ul>
 * Copies never follow a symbolic link ({@link #copyTree}: {@code h -> /} is copied as the link,
 * not as the host's disk), and every tree the run checks out is refused if a link in it leaves it
 * ({@link RecipeTree#requireSelfContained}), before anything reads it.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeFetch {

    private static final Logger LOG = LoggerFactory.getLogger(RecipeFetch.class);

    /**
     * The fetched tree: where it is, the commit checked out, the release tags it has, and what each
     * of its tags points at (an annotated tag's commit, not the tag object).
     */
    public record Fetched(Path dir, String commit, List<RecipeVersion> releases, Map<String, String> tagTargets) {
        public Fetched {
            releases = List.copyOf(releases);
            tagTargets = Map.copyOf(tagTargets);
        }
    }

    private final ChildProcesses processes;
    private final FetchBound bound;

    /** With the default bounds of what a fetch may write ({@link FetchBound#DEFAULT}). */
    public RecipeFetch(ChildProcesses processes) {
        this(processes, FetchBound.DEFAULT);
    }

    /** @param bound what a fetch may write into the run's folder, judged before it is written */
    public RecipeFetch(ChildProcesses processes, FetchBound bound) {
        this.processes = processes;
        this.bound = bound;
    }

    /**
     * The recipe at {@code source} into {@code target}, at {@code ref} (null: its HEAD). Whatever it
     * would write is judged against the host's {@link FetchBound} first; a recipe past it is refused
     * in one sentence and nothing of it is left in {@code target}.
     */
    public Fetched fetch(Path source, Path target, String ref) throws IOException, InterruptedException {
        String recipe = source.getFileName().toString();
        try {
            if (Files.exists(source.resolve(".git"))) {
                bound.requireRepository(source.resolve(".git"), recipe);
                return cloned(source, target, ref, recipe);
            }
            if (Files.isDirectory(source.resolve("versions"))) {
                bound.requireFolder(source.resolve("versions"), false, recipe, "its versions/ folder");
                return checkout(target, ref, materialize(source.resolve("versions"), target), recipe);
            }
            if (Files.isRegularFile(source.resolve("compose.yml"))) {
                bound.requireFolder(source, false, recipe, "its folder");
                copyTree(source, target);
                commitAll(target, "working tree of " + source.getFileName(), 0);
                return checkout(target, ref, Optional.empty(), recipe);
            }
        } catch (FetchBound.TooLarge refused) {
            forget(target, refused);
            throw refused;
        }
        throw new IOException("recipe folder " + source + " holds neither a git repository, versions/<version>/"
                + " trees, nor a compose.yml: point -Dccci.recipes at a directory of recipe folders.");
    }

    /**
     * {@code CCCI_SKIP_FETCH=1}: a copy of the clone staged in the canonical abra directory
     * (test and Adversary staging), so the run still works in its own tree and never checks a
     * ref out under the staged clone or another run. Its repository and working tree are judged as a
     * fetch's are, before the copy.
     */
    public Fetched copyStaged(Path staged, Path target, String ref) throws IOException, InterruptedException {
        if (!Files.isDirectory(staged.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(HostVariables.SKIP_FETCH + " is set but " + staged + " holds no staged git clone of the"
                    + " recipe: clone it there first, or unset " + HostVariables.SKIP_FETCH + ".");
        }
        String recipe = target.getFileName().toString();
        try {
            bound.requireRepository(staged.resolve(".git"), recipe);
            bound.requireFolder(staged, true, recipe, "its staged clone's working tree");
            copyTree(staged, target);
            return checkout(target, ref, Optional.empty(), recipe);
        } catch (FetchBound.TooLarge refused) {
            forget(target, refused);
            throw refused;
        }
    }

    /**
     * A local clone without a checkout (what it writes is the repository, judged before), the tree at
     * {@code ref} (else HEAD) judged from git's object headers in the same child, then checked out by
     * its id: the one point where the tree is written.
     */
    private Fetched cloned(Path source, Path target, String ref, String recipe) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        String commit = judged(List.of("sh", "-c", "git clone --quiet --no-checkout -- \"$1\" \"$2\" || exit " + CLONE_FAILED
                + "; shift; " + RESOLVE_AND_LIST, "sh", source.toString(), target.toString(), ref == null ? "HEAD" : ref),
                target, ref, recipe);
        // HEAD stays on its branch when no ref was asked for, as a clone leaves it
        String refs = stdout(whole(List.of("sh", "-c", (ref == null ? "git -C \"$1\" reset --quiet --hard \"$2\""
                : CHECKOUT) + " && git -C \"$1\" show-ref --head --tags --dereference", "sh", target.toString(), commit)),
                "the checkout of " + commit + " in " + target.getFileName());
        RecipeTree.requireSelfContained(target);
        return fetched(target, refs.lines().toList());
    }

    /**
     * What a fetch refused leaves: nothing (links in it are removed, never followed); the refusal is
     * said in the run's log as well, where the run's own lines are.
     */
    private static void forget(Path target, FetchBound.TooLarge refused) {
        LOG.error("!! {} !!", refused.getMessage());
        try {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                PathUtils.deleteDirectory(target);
            }
        } catch (IOException e) {
            LOG.warn("could not remove the refused recipe tree {}: {}", target, e.toString());
        }
    }

    /**
     * A copy of {@code source} into {@code target} that never follows a symbolic link: a link is
     * copied as the link (commons-io's {@code FileUtils.copyDirectory} descends into a linked
     * directory even when told not to follow links). Modes and dates are kept: git trusts them.
     */
    public static void copyTree(Path source, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        PathUtils.copyDirectory(source, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
    }

    /**
     * The tree at {@code ref} (else as it is), then HEAD and the tags: "<id> HEAD" first, then
     * "<id> refs/tags/<tag>" each, and after an annotated tag "<commit> refs/tags/<tag>^{}", the
     * commit it points at. {@code listed}: that listing of the tree as it is, when the child that made
     * it printed it already. A move to {@code ref} is judged ({@link #judged}) before its checkout.
     */
    private Fetched checkout(Path target, String ref, Optional<String> listed, String recipe)
            throws IOException, InterruptedException {
        String refs;
        if (ref != null) {
            String commit = judged(List.of("sh", "-c", RESOLVE_AND_LIST, "sh", target.toString(), ref), target, ref, recipe);
            refs = stdout(whole(List.of("sh", "-c", CHECKOUT + " && git -C \"$1\" show-ref --head --tags --dereference", "sh",
                    target.toString(), commit)), "the checkout of " + ref + " in " + target.getFileName());
        } else {
            refs = listed.isPresent() ? listed.get() : listing(target, "show-ref", "--head", "--tags", "--dereference");
        }
        RecipeTree.requireSelfContained(target);
        return fetched(target, refs.lines().toList());
    }

    /**
     * The ref resolved to a commit with option parsing ended (status {@link #NOT_A_COMMIT} when git
     * cannot), then, NUL-terminated, its id and the whole tree at it with each blob's size as its
     * object header says ({@code ls-tree -l} never inflates a blob). {@code $1}: the tree, {@code $2}:
     * the ref; never part of the script's text.
     */
    private static final String RESOLVE_AND_LIST = "c=$(git -C \"$1\" rev-parse --verify --quiet --end-of-options"
            + " \"$2^{commit}\") && [ ${#c} -eq 40 ] || exit 3; printf '%s\\0' \"$c\" && git -C \"$1\" ls-tree -r -l -z"
            + " --full-tree \"$c\"";
    /** A checkout by id ({@code $2}, a commit {@link #RESOLVE_AND_LIST} gave and the bound judged) of the tree {@code $1}. */
    private static final String CHECKOUT = "git -C \"$1\" checkout --quiet --detach \"$2\"";
    private static final int NOT_A_COMMIT = 3;
    private static final int CLONE_FAILED = 4;

    /**
     * The commit {@code command} (a {@link #RESOLVE_AND_LIST}) resolved, once its tree is judged within
     * the bound; one sentence naming the fix for a ref git cannot resolve, git's own words for another
     * failure.
     *
     * @throws FetchBound.TooLarge when the tree at it holds more than a fetch may write
     */
    private String judged(List<String> command, Path dir, String ref, String recipe) throws IOException, InterruptedException {
        ChildProcesses.Whole result;
        try {
            result = processes.runWholeWithInput(command, Duration.ofMinutes(5), bound.listingBytes(), null);
        } catch (ChildProcesses.OutputTooLarge large) {
            throw bound.listingTooLarge(recipe, ref == null ? "HEAD" : ref, bound.listingBytes());
        }
        if (result.exitCode() == NOT_A_COMMIT) {
            throw new IOException("ref '" + ref + "' is not a commit, branch or tag of the recipe in " + dir.getFileName()
                    + " (git cannot resolve it): pass -Dccci.ref=<a commit id, branch or tag of the recipe's repository>,"
                    + " or leave it out to test the recipe's HEAD.");
        }
        if (!result.ok()) {
            throw new IOException((result.exitCode() == CLONE_FAILED ? "git clone of " + recipe : "git ls-tree of " + ref
                    + " in " + dir.getFileName()) + " exited " + result.exitCode() + ": " + result.stderr().strip());
        }
        String out = result.stdout();
        int end = out.indexOf('\0');
        String commit = end < 0 ? "" : out.substring(0, end);
        if (!commit.matches("[0-9a-f]{40}")) {
            throw new IOException("git resolved " + ref + " in " + dir.getFileName() + " to no commit id: " + out.lines().findFirst()
                    .orElse(""));
        }
        bound.requireTree(out.substring(end + 1), recipe, ref == null ? commit.substring(0, 12) : ref);
        return commit;
    }

    private Fetched fetched(Path target, List<String> refs) throws IOException {
        String commit = refs.get(0).endsWith(" HEAD") ? refs.get(0).substring(0, refs.get(0).indexOf(' ')) : "";
        if (!commit.matches("[0-9a-f]{40}")) {
            throw new IOException("the recipe tree " + target + " has no HEAD commit (git show-ref: " + refs + ")");
        }
        Map<String, String> targets = new HashMap<>();
        for (String line : refs.subList(1, refs.size())) {
            String id = line.substring(0, line.indexOf(' '));
            String name = line.substring(line.indexOf(' ') + 1);
            if (name.startsWith("refs/tags/") && name.endsWith("^{}")) {
                targets.put(name.substring("refs/tags/".length(), name.length() - "^{}".length()), id);
            } else if (name.startsWith("refs/tags/")) {
                targets.putIfAbsent(name.substring("refs/tags/".length()), id);
            }
        }
        return new Fetched(target, commit, releases(String.join("\n", targets.keySet())), targets);
    }

    /**
     * The release tags among {@code tags} (one a line), in version order. A tag that is no
     * version ({@code latest}) is not a release; one that looks like a release but cannot be
     * ordered ({@code 99999999999999999999.0.0}) is not one either, and the run says why in one
     * line.
     */
    static List<RecipeVersion> releases(String tags) {
        List<RecipeVersion> releases = new ArrayList<>();
        for (String tag : tags.lines().map(String::strip).filter(t -> !t.isEmpty()).toList()) {
            Optional<RecipeVersion> version = RecipeVersion.parse(tag);
            if (version.isPresent()) {
                releases.add(version.get());
            } else {
                RecipeVersion.problem(tag).ifPresent(problem -> LOG.warn("{} (the tag is not taken as a release)", problem));
            }
        }
        Collections.sort(releases);
        return List.copyOf(releases);
    }

    /**
     * The release tags that are lightweight (a ref straight to a commit, not a tag object): abra
     * reads recipe versions from annotated tags only (its lint rule R014).
     */
    public List<String> lightweightReleaseTags(Path dir) throws IOException, InterruptedException {
        List<String> lightweight = new ArrayList<>();
        for (String line : listing(dir, "for-each-ref", "--format=%(objecttype) %(refname:short)", "refs/tags").lines()
                .toList()) {
            String[] typeAndTag = line.strip().split(" ", 2);
            if (typeAndTag.length == 2 && typeAndTag[0].equals("commit") && RecipeVersion.parse(typeAndTag[1]).isPresent()) {
                lightweight.add(typeAndTag[1]);
            }
        }
        return lightweight;
    }

    /**
     * Moves the tree to {@code ref} (a commit, branch or tag): resolved to a commit first, with
     * option parsing ended, then checked out by id; a ref git cannot resolve is one sentence
     * naming the fix, not git's own error. The tree at its new ref must hold no link leaving it.
     * A tree this class already moved to that very commit (its detached HEAD names it) stays as it
     * is: LINT's move to the head after the upgrade's is no second checkout.
     */
    public void moveTo(Path dir, String ref) throws IOException, InterruptedException {
        if (ref.matches("[0-9a-f]{40}") && detachedAt(dir).equals(ref)) {
            return;
        }
        String commit = judged(List.of("sh", "-c", RESOLVE_AND_LIST, "sh", dir.toString(), ref), dir, ref,
                dir.getFileName().toString());
        stdout(whole(List.of("sh", "-c", CHECKOUT, "sh", dir.toString(), commit)), "the checkout of " + ref + " in "
                + dir.getFileName());
        RecipeTree.requireSelfContained(dir);
    }

    /** The commit the tree's HEAD is detached at (what {@link #MOVE} leaves in .git/HEAD), or "" if it is not detached. */
    private static String detachedAt(Path dir) throws IOException {
        Path head = dir.resolve(".git").resolve("HEAD");
        if (!Files.isRegularFile(head, LinkOption.NOFOLLOW_LINKS) || Files.size(head) > 128) {
            return "";
        }
        return Files.readString(head).strip();
    }

    /**
     * The file of the tree as checked out at its head (read while it is there), whole, or empty if
     * it has none there; one larger than {@link #LISTING_BYTES} is refused in one sentence, as the
     * same file read through git was (what reads it judges it whole or not at all).
     */
    Optional<String> atHead(Fetched tree, String file) throws IOException {
        Path path = tree.dir().resolve(file);
        if (!Files.isRegularFile(path)) {
            return Optional.empty();
        }
        if (Files.size(path) > LISTING_BYTES) {
            throw new IllegalStateException("the recipe in " + tree.dir().getFileName() + ": its " + file + " is larger than "
                    + (LISTING_BYTES >> 20) + " MiB, the most ccci reads of a recipe's file (it judges it whole or not at"
                    + " all): shrink the file.");
        }
        return Optional.of(Files.readString(path, StandardCharsets.UTF_8));
    }

    /**
     * The release to upgrade from: for a head that is itself a release, the newest release
     * older than it; for an untagged head (a PR), the newest release it descends from (its tags
     * merged into the head, in version order, whatever their dates); stable releases before
     * pre-releases. Never the head's own release (nor another spelling of it, {@code v1.0.0} for
     * {@code 1.0.0+x}): an upgrade from a version to itself proves nothing.
     */
    Optional<RecipeVersion> upgradeBase(Fetched tree) throws IOException, InterruptedException {
        return newestPreferringStable(olderReleases(tree));
    }

    /**
     * The releases the head may be upgraded from, in version order: for a head that is itself a
     * release, the releases older than it; for an untagged head (a PR), the releases it descends from.
     * Never the head's own release, in any spelling.
     */
    List<RecipeVersion> olderReleases(Fetched tree) throws IOException, InterruptedException {
        Optional<RecipeVersion> atHead = releaseAtHead(tree);
        return atHead.isPresent()
                ? tree.releases().stream().filter(v -> v.compareTo(atHead.get()) < 0 && !v.samePrecedence(atHead.get())).toList()
                : releases(listing(tree.dir(), "tag", "--merged", tree.commit()));
    }

    /**
     * A tree of its own at {@code commit} (a release tag's target) beside {@code tree}, sharing its
     * objects: an upgrade run of another base deploys from it and moves it to the head in place,
     * never touching the run's own tree. Judged as every checkout is ({@link #moveTo}).
     */
    public void copyAt(Fetched tree, Path target, String commit) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        stdout(whole(null, "clone", "--quiet", "--shared", "--no-checkout", "--", tree.dir().toString(), target.toString()),
                "the copy of " + tree.dir().getFileName() + " for " + target.getFileName());
        moveTo(target, commit);
    }

    /**
     * The files at the top of the tree as {@code commit} (a release tag's target) holds them, whose
     * names {@code wanted} accepts, each whole, by name; the tree stays where it is. Two children: the
     * listing, then every file at once (names as arguments, never part of the script's text). The
     * whole output is bounded by {@link #LISTING_BYTES}, as every listing ccci reads.
     */
    Map<String, String> filesAt(Fetched tree, String commit, java.util.function.Predicate<String> wanted)
            throws IOException, InterruptedException {
        if (!commit.matches("[0-9a-f]{40}")) {
            throw new IllegalArgumentException("not a commit id: " + commit);
        }
        List<String> names = List.of(listing(tree.dir(), "ls-tree", "--name-only", "-z", commit).split("\0")).stream()
                .filter(n -> !n.isEmpty() && wanted.test(n)).toList();
        Map<String, String> files = new java.util.LinkedHashMap<>();
        if (names.isEmpty()) {
            return files;
        }
        List<String> command = new ArrayList<>(List.of("sh", "-c", "d=$1; c=$2; shift 2; for f; do printf '\\036%s\\036' \"$f\";"
                + " git -C \"$d\" show \"$c:$f\" || exit 1; done", "sh", tree.dir().toString(), commit));
        command.addAll(names);
        String out = stdout(whole(command), "the files of " + commit.substring(0, 12) + " in " + tree.dir().getFileName());
        String[] parts = out.split("\036", -1);
        for (int i = 1; i + 1 < parts.length; i += 2) {
            files.put(parts[i], parts[i + 1]);
        }
        return files;
    }

    /**
     * The newest stable release, else the newest pre-release: people upgrade from the release they
     * run, which is a stable one whenever there is one.
     */
    static Optional<RecipeVersion> newestPreferringStable(List<RecipeVersion> releases) {
        Optional<RecipeVersion> stable = releases.stream().filter(v -> !v.preRelease()).max(RecipeVersion::compareTo);
        return stable.isPresent() ? stable : releases.stream().max(RecipeVersion::compareTo);
    }

    /** The newest release tag on the head commit, if the head is a release (what {@code git tag --points-at} lists). */
    Optional<RecipeVersion> releaseAtHead(Fetched tree) {
        return releases(tree.tagTargets().entrySet().stream().filter(t -> t.getValue().equals(tree.commit()))
                .map(Map.Entry::getKey).collect(Collectors.joining("\n"))).stream().max(RecipeVersion::compareTo);
    }

    /**
     * The versions as a repository at {@code target}, main checked out; when one fast-import wrote
     * them all, what {@code git show-ref --head --tags --dereference} printed after it (the same
     * child: the tree is at its head), else empty.
     */
    private Optional<String> materialize(Path versions, Path target) throws IOException, InterruptedException {
        List<String> names;
        try (Stream<Path> entries = Files.list(versions)) {
            names = entries.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String name : names) {
            Optional<String> problem = RecipeVersion.problem(name);
            if (problem.isPresent()) {
                throw new IOException(versions.resolve(name) + ": " + problem.get());
            }
        }
        List<RecipeVersion> ordered = names.stream().map(RecipeVersion::parse).flatMap(Optional::stream).sorted().toList();
        if (ordered.isEmpty()) {
            throw new IOException(versions + " holds no <semver>+<upstream> version folders.");
        }
        Files.createDirectories(target);
        if (VersionImport.applies(versions)) {
            // every version at once: one fast-import, then main checked out and the refs listed, in
            // one child (a shell running git four times), where committing and tagging them costs
            // three a version. The import stays a pack: under fast-import's unpack limit (100
            // objects) git would start unpack-objects to write each object loose, a child of its own
            // (30-40 ms of a cold run's fetch, docs/benchmarks.md) for a repository read a few times.
            Path stream = target.getParent().resolve(target.getFileName() + ".ccci-versions.fi");
            VersionImport.write(versions, ordered, stream);
            try {
                List<String> command = List.of("sh", "-c", "cd \"$1\" && git init --quiet --initial-branch=main"
                        + " && git -c fastimport.unpackLimit=0 fast-import --quiet --done && git reset --quiet --hard main"
                        + " && git show-ref --head --tags --dereference", "sh", target.toString());
                return Optional.of(stdout(whole(command, stream), "the import of " + versions));
            } finally {
                Files.deleteIfExists(stream);
            }
        }
        int day = 1;
        for (RecipeVersion version : ordered) {
            try (Stream<Path> old = Files.list(target)) {
                for (Path p : old.filter(p -> !p.getFileName().toString().equals(".git")).collect(Collectors.toList())) {
                    FileUtils.forceDelete(p.toFile());
                }
            }
            copyTree(versions.resolve(version.text()), target);
            commitAll(target, "release " + version, day);
            // annotated, as abra wants release tags (lint R014)
            processes.run(command(target, "-c", "tag.gpgsign=false", "tag", "-a", version.text(), "-m", "release " + version),
                    null, identity(day++), Duration.ofMinutes(1)).orThrow();
        }
        return Optional.empty();
    }

    private void commitAll(Path repo, String message, int day) throws IOException, InterruptedException {
        if (!Files.exists(repo.resolve(".git"))) {
            git(repo, "init", "--quiet", "--initial-branch=main");
        }
        // A fresh index: git trusts a file's size and mtime, and copied version trees keep their
        // mtimes, so a changed file of the same size and date would otherwise not be committed.
        Files.deleteIfExists(repo.resolve(".git/index"));
        git(repo, "add", "--all");
        processes.run(command(repo, "-c", "commit.gpgsign=false", "commit", "--quiet", "--allow-empty", "-m", message),
                null, identity(day), Duration.ofMinutes(1)).orThrow();
    }

    /** A fixed author, committer and tagger with a fixed date per release: the same ids on every host. */
    private static Map<String, String> identity(int day) {
        String date = releaseDate(day);
        return new HashMap<>(Map.of(
                "GIT_AUTHOR_NAME", "ccci", "GIT_AUTHOR_EMAIL", "ccci@localhost",
                "GIT_COMMITTER_NAME", "ccci", "GIT_COMMITTER_EMAIL", "ccci@localhost",
                "GIT_AUTHOR_DATE", date, "GIT_COMMITTER_DATE", date));
    }

    /** The fixed date of the {@code day}-th release (from 1), for its commit and tag. */
    static String releaseDate(int day) {
        return String.format("2026-01-%02dT00:00:00Z", day + 1);
    }

    private ChildProcesses.Result git(Path repo, String... args) throws IOException, InterruptedException {
        return processes.run(command(repo, args), null).orThrow();
    }

    /** The most of a git listing ccci reads (a repository's tags, a file at a ref): beyond it, the recipe is refused. */
    static final int LISTING_BYTES = 4 << 20;

    /**
     * A listing git prints, whole: what reads it judges it (a lightweight release tag, the releases to
     * upgrade from), so a cut copy would let the tags in its middle pass unjudged.
     */
    private String listing(Path repo, String... args) throws IOException, InterruptedException {
        return stdout(whole(repo, args), "git " + String.join(" ", args) + " in " + repo.getFileName());
    }

    /** What {@code result}'s child printed, or its exit status and own words when it failed ({@code what}: the child, named). */
    private static String stdout(ChildProcesses.Whole result, String what) throws IOException {
        if (!result.ok()) {
            throw new IOException(what + " exited " + result.exitCode() + ": " + result.stderr().strip());
        }
        return result.stdout();
    }

    private ChildProcesses.Whole whole(Path repo, String... args) throws IOException, InterruptedException {
        return whole(command(repo, args));
    }

    private ChildProcesses.Whole whole(List<String> command) throws IOException, InterruptedException {
        return whole(command, null);
    }

    /** As {@link #whole(List)}, with the file {@code input} (null: none) as the child's standard input. */
    private ChildProcesses.Whole whole(List<String> command, Path input) throws IOException, InterruptedException {
        try {
            return processes.runWholeWithInput(command, Duration.ofMinutes(5), LISTING_BYTES, input);
        } catch (ChildProcesses.OutputTooLarge large) {
            throw new IllegalStateException("the recipe: " + String.join(" ", command.subList(0, Math.min(command.size(), 4)))
                    + "... printed more than " + (LISTING_BYTES >> 20) + " MiB, the most ccci reads of a repository's listing"
                    + " (it judges it whole or not at all): prune the repository's tags.");
        }
    }

    private static List<String> command(Path repo, String... args) {
        List<String> command = new ArrayList<>(List.of("git"));
        if (repo != null) {
            command.addAll(List.of("-C", repo.toString()));
        }
        command.addAll(List.of(args));
        return command;
    }
}
