package net.commoninternet.ccci.extensions.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import org.apache.commons.io.FileUtils;
import org.apiguardian.api.API;

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
 */
@API(status = API.Status.INTERNAL)
public final class RecipeFetch {

    /** The fetched tree: where it is, the commit checked out, and the release tags it has. */
    public record Fetched(Path dir, String commit, List<RecipeVersion> releases) {
    }

    private final ChildProcesses processes;

    public RecipeFetch(ChildProcesses processes) {
        this.processes = processes;
    }

    public Fetched fetch(Path source, Path target, String ref) throws IOException, InterruptedException {
        if (Files.exists(source.resolve(".git"))) {
            git(null, "clone", "--quiet", source.toString(), target.toString());
        } else if (Files.isDirectory(source.resolve("versions"))) {
            materialize(source.resolve("versions"), target);
        } else if (Files.isRegularFile(source.resolve("compose.yml"))) {
            FileUtils.copyDirectory(source.toFile(), target.toFile());
            commitAll(target, "working tree of " + source.getFileName(), 0);
        } else {
            throw new IOException("recipe folder " + source + " holds neither a git repository, versions/<version>/"
                    + " trees, nor a compose.yml: point -Dccci.recipes at a directory of recipe folders.");
        }
        return checkout(target, ref);
    }

    /**
     * {@code CCCI_SKIP_FETCH=1}: a copy of the clone staged in the canonical abra directory
     * (test and Adversary staging), so the run still works in its own tree and never checks a
     * ref out under the staged clone or another run.
     */
    public Fetched copyStaged(Path staged, Path target, String ref) throws IOException, InterruptedException {
        if (!Files.isDirectory(staged.resolve(".git"))) {
            throw new IOException("CCCI_SKIP_FETCH is set but " + staged + " holds no staged git clone of the recipe:"
                    + " clone it there first, or unset CCCI_SKIP_FETCH.");
        }
        FileUtils.copyDirectory(staged.toFile(), target.toFile());
        return checkout(target, ref);
    }

    private Fetched checkout(Path target, String ref) throws IOException, InterruptedException {
        if (ref != null) {
            moveTo(target, ref);
        }
        String commit = git(target, "rev-parse", "HEAD").output().strip();
        List<RecipeVersion> releases = git(target, "tag", "--list").output().lines()
                .map(String::strip).map(RecipeVersion::parse).flatMap(Optional::stream).sorted()
                .collect(Collectors.toList());
        return new Fetched(target, commit, releases);
    }

    /**
     * Moves the tree to {@code ref} (a commit, branch or tag): resolved to a commit first, with
     * option parsing ended, then checked out by id; a ref git cannot resolve is one sentence
     * naming the fix, not git's own error.
     */
    public void moveTo(Path dir, String ref) throws IOException, InterruptedException {
        ChildProcesses.Result resolved = processes.run(command(dir, "rev-parse", "--verify", "--quiet", "--end-of-options",
                ref + "^{commit}"), null);
        String commit = resolved.output().strip();
        if (!resolved.ok() || !commit.matches("[0-9a-f]{40}")) {
            throw new IOException("ref '" + ref + "' is not a commit, branch or tag of the recipe in " + dir.getFileName()
                    + " (git cannot resolve it): pass -Dccci.ref=<a commit id, branch or tag of the recipe's repository>,"
                    + " or leave it out to test the recipe's HEAD.");
        }
        git(dir, "checkout", "--quiet", "--detach", commit);
    }

    /** The file at {@code ref} without checking it out, or empty if it does not exist there. */
    Optional<String> show(Path dir, String ref, String file) throws IOException, InterruptedException {
        ChildProcesses.Result result = processes.run(command(dir, "show", ref + ":" + file), null);
        return result.ok() ? Optional.of(result.output()) : Optional.empty();
    }

    /**
     * The release to upgrade from: for a head that is itself a release, the newest release
     * older than it; for an untagged head (a PR), the newest release it descends from. Never the
     * head's own commit: an upgrade from a version to itself proves nothing.
     */
    Optional<RecipeVersion> upgradeBase(Fetched tree) throws IOException, InterruptedException {
        Optional<RecipeVersion> atHead = releaseAtHead(tree);
        if (atHead.isPresent()) {
            return tree.releases().stream().filter(v -> v.compareTo(atHead.get()) < 0).max(RecipeVersion::compareTo);
        }
        ChildProcesses.Result described = processes.run(command(tree.dir(), "describe", "--tags", "--abbrev=0", "HEAD"), null);
        return described.ok() ? RecipeVersion.parse(described.output().strip()) : Optional.empty();
    }

    /** The newest release tag on the head commit, if the head is a release. */
    Optional<RecipeVersion> releaseAtHead(Fetched tree) throws IOException, InterruptedException {
        return git(tree.dir(), "tag", "--points-at", tree.commit()).output().lines()
                .map(String::strip).map(RecipeVersion::parse).flatMap(Optional::stream).max(RecipeVersion::compareTo);
    }

    private void materialize(Path versions, Path target) throws IOException, InterruptedException {
        List<RecipeVersion> ordered;
        try (Stream<Path> entries = Files.list(versions)) {
            ordered = entries.map(p -> p.getFileName().toString()).map(RecipeVersion::parse)
                    .flatMap(Optional::stream).sorted().collect(Collectors.toList());
        }
        if (ordered.isEmpty()) {
            throw new IOException(versions + " holds no <semver>+<upstream> version folders.");
        }
        Files.createDirectories(target);
        int day = 1;
        for (RecipeVersion version : ordered) {
            try (Stream<Path> old = Files.list(target)) {
                for (Path p : old.filter(p -> !p.getFileName().toString().equals(".git")).collect(Collectors.toList())) {
                    FileUtils.forceDelete(p.toFile());
                }
            }
            FileUtils.copyDirectory(versions.resolve(version.text()).toFile(), target.toFile());
            commitAll(target, "release " + version, day++);
            git(target, "tag", version.text());
        }
    }

    private void commitAll(Path repo, String message, int day) throws IOException, InterruptedException {
        if (!Files.exists(repo.resolve(".git"))) {
            git(repo, "init", "--quiet", "--initial-branch=main");
        }
        git(repo, "add", "--all");
        String date = String.format("2026-01-%02dT00:00:00Z", day + 1);
        Map<String, String> identity = new HashMap<>(Map.of(
                "GIT_AUTHOR_NAME", "ccci", "GIT_AUTHOR_EMAIL", "ccci@localhost",
                "GIT_COMMITTER_NAME", "ccci", "GIT_COMMITTER_EMAIL", "ccci@localhost",
                "GIT_AUTHOR_DATE", date, "GIT_COMMITTER_DATE", date));
        processes.run(command(repo, "-c", "commit.gpgsign=false", "commit", "--quiet", "--allow-empty", "-m", message),
                null, identity, java.time.Duration.ofMinutes(1)).orThrow();
    }

    private ChildProcesses.Result git(Path repo, String... args) throws IOException, InterruptedException {
        return processes.run(command(repo, args), null).orThrow();
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
