package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Release tags as real recipe repositories have them ({@code <semver>+<upstream>}, {@code v1.2.3},
 * pre-releases, annotated or lightweight, tags that are no version), in a real git repository:
 * the upgrade base is the newest stable release older than the head (or that the head descends
 * from), in version order whatever the tags' dates.
 */
class RecipeFetchTest {

    @TempDir
    Path dir;

    private Path source;
    private int commits;
    private final ChildProcesses children = new ChildProcesses(Map.of("GIT_AUTHOR_NAME", "t", "GIT_AUTHOR_EMAIL", "t@t",
            "GIT_COMMITTER_NAME", "t", "GIT_COMMITTER_EMAIL", "t@t"));
    private final RecipeFetch fetch = new RecipeFetch(children);

    @BeforeEach
    void repository() throws Exception {
        source = Files.createDirectories(dir.resolve("source"));
        git("init", "-q", "--initial-branch=main");
    }

    private void git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", source.toString(), "-c", "tag.gpgsign=false",
                "-c", "commit.gpgsign=false"));
        command.addAll(List.of(args));
        children.run(command, null).orThrow();
    }

    /** {@code file} as committed at {@code ref} of the repository in {@code repo}. */
    private String show(Path repo, String ref, String file) throws Exception {
        return children.runWhole(List.of("git", "-C", repo.toString(), "show", ref + ":" + file), null, java.util.Map.of(),
                java.time.Duration.ofMinutes(1), 1 << 20).stdout();
    }

    /** A commit, tagged with each of {@code tags} (annotated unless its name starts with "lw:"). */
    private void release(String... tags) throws Exception {
        Files.writeString(source.resolve("compose.yml"), "services: {app: {image: x:" + commits++ + "}}\n");
        git("add", "-A");
        git("commit", "-qm", "commit " + commits);
        for (String tag : tags) {
            if (tag.startsWith("lw:")) {
                git("tag", tag.substring(3));
            } else {
                git("tag", "-a", tag, "-m", tag);
            }
        }
    }

    private RecipeFetch.Fetched fetched(String ref) throws Exception {
        return fetch.fetch(source, dir.resolve("tree-" + commits + "-" + ref), ref);
    }

    @Test
    void aReleasedHeadUpgradesFromTheNewestStableReleaseOlderThanIt() throws Exception {
        release("1.9.0+1.0");
        release("1.10.0+1.1");          // newer than 1.9.0 as a number, not as text
        release("2.0.0-rc.1+2.0");
        release("latest", "2.0.0+2.0");

        RecipeFetch.Fetched tree = fetched("2.0.0+2.0");

        assertThat(tree.releases()).extracting(RecipeVersion::text)
                .containsExactly("1.9.0+1.0", "1.10.0+1.1", "2.0.0-rc.1+2.0", "2.0.0+2.0");
        assertThat(fetch.releaseAtHead(tree)).map(RecipeVersion::text).contains("2.0.0+2.0");
        assertThat(fetch.upgradeBase(tree)).map(RecipeVersion::text).contains("1.10.0+1.1");
    }

    @Test
    void aPreReleaseHeadAlsoUpgradesFromTheStableReleasePeopleRun() throws Exception {
        release("1.0.0+1.0");
        release("1.1.0-rc.1+1.1");
        release("1.1.0-rc.2+1.1");

        assertThat(fetch.upgradeBase(fetched("1.1.0-rc.2+1.1"))).map(RecipeVersion::text).contains("1.0.0+1.0");
    }

    @Test
    void onlyPreReleasesOlderThanTheHeadMakeTheNewestOfThemTheBase() throws Exception {
        release("1.0.0-rc.1");
        release("1.0.0-rc.2");
        release("1.0.0");

        assertThat(fetch.upgradeBase(fetched("1.0.0"))).map(RecipeVersion::text).contains("1.0.0-rc.2");
    }

    @Test
    void anUntaggedHeadUpgradesFromTheNewestReleaseItDescendsFrom() throws Exception {
        release("v1.0.0");
        release("lw:v1.2.0");
        git("checkout", "-q", "-b", "other", "v1.0.0");
        release("3.0.0+x");             // a release on another branch: not what the PR descends from
        git("checkout", "-q", "main");
        release();                      // the PR's own commit, untagged

        RecipeFetch.Fetched tree = fetched("main");

        assertThat(fetch.releaseAtHead(tree)).isEmpty();
        assertThat(fetch.upgradeBase(tree)).map(RecipeVersion::text).contains("v1.2.0");
    }

    @Test
    void anotherSpellingOfTheHeadsOwnReleaseIsNeverItsBase() throws Exception {
        release("1.0.0+1.0");
        release("1.1.0+1.0", "v1.1.0");

        assertThat(fetch.upgradeBase(fetched("1.1.0+1.0"))).map(RecipeVersion::text).contains("1.0.0+1.0");
    }

    @Test
    void aTagBeyondSixtyFourBitsIsNoReleaseAndAHugeOneStillOrdersAsANumber() throws Exception {
        release("1.0.0");
        release("99999999999.0.0");
        release("99999999999999999999.0.0");

        RecipeFetch.Fetched tree = fetched("main");

        assertThat(tree.releases()).extracting(RecipeVersion::text).containsExactly("1.0.0", "99999999999.0.0");
        assertThat(fetch.upgradeBase(tree)).map(RecipeVersion::text).contains("99999999999.0.0");
    }

    /** abra's R014: a release tag that is a plain ref to a commit is lightweight. */
    @Test
    void lightweightReleaseTagsAreListedAndAnnotatedOnesAndNonVersionsAreNot() throws Exception {
        release("1.0.0+1.0", "lw:latest");
        release("lw:1.1.0+1.0", "lw:v1.2.0-beta.1");

        assertThat(fetch.lightweightReleaseTags(fetched("main").dir())).containsExactlyInAnyOrder("1.1.0+1.0", "v1.2.0-beta.1");
    }

    /** Bundled recipes are committed from versions/<version>/ trees: their tags are annotated, as abra wants. */
    @Test
    void bundledVersionTreesBecomeAnnotatedTagsInVersionOrder() throws Exception {
        Path versions = Files.createDirectories(dir.resolve("bundled/versions"));
        FileTime sameTime = FileTime.fromMillis(1_700_000_000_000L);
        for (String v : List.of("1.10.0+b", "1.9.0+a")) {
            Path compose = Files.createDirectories(versions.resolve(v)).resolve("compose.yml");
            Files.writeString(compose, "release " + v.charAt(v.length() - 1) + "\n");
            Files.setLastModifiedTime(compose, sameTime);
        }

        RecipeFetch.Fetched tree = fetch.fetch(dir.resolve("bundled"), dir.resolve("bundled-tree"), null);

        assertThat(tree.releases()).extracting(RecipeVersion::text).containsExactly("1.9.0+a", "1.10.0+b");
        assertThat(fetch.lightweightReleaseTags(tree.dir())).isEmpty();
        assertThat(fetch.releaseAtHead(tree)).map(RecipeVersion::text).isEqualTo(Optional.of("1.10.0+b"));
        // the same size and mtime in both trees: each release's content is still what was committed
        assertThat(show(tree.dir(), "1.9.0+a", "compose.yml")).isEqualTo("release a\n");
        assertThat(show(tree.dir(), "1.10.0+b", "compose.yml")).isEqualTo("release b\n");
        assertThat(fetch.atHead(tree, "compose.yml")).contains("release b\n");
    }

    /** A head's file is read whole or refused in one sentence: never a cut copy, never taken for absent. */
    @Test
    void aHeadFileLargerThanWhatCcciReadsIsRefusedInOneSentence() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("big-tree"));
        Files.writeString(tree.resolve("compose.yml"), "x".repeat(RecipeFetch.LISTING_BYTES + 1));
        RecipeFetch.Fetched fetched = new RecipeFetch.Fetched(tree, "0".repeat(40), List.of(), Map.of());

        assertThat(fetch.atHead(fetched, "absent.yml")).isEmpty();
        assertThatThrownBy(() -> fetch.atHead(fetched, "compose.yml")).isInstanceOf(IllegalStateException.class)
                .hasMessage("the recipe in big-tree: its compose.yml is larger than 4 MiB, the most ccci reads of a"
                        + " recipe's file (it judges it whole or not at all): shrink the file.");
    }

    /**
     * The one fast-import of every version gives the very commits and tags that committing and
     * tagging them one after the other gives (the ids of the bundled recipes' releases, and so their
     * run domains, do not move): executable files, links (kept as links), nested and empty folders,
     * names with spaces, quotes and non-ASCII letters, a file removed and one changed at the same size
     * and date.
     */
    @Test
    void bundledVersionTreesImportedAtOnceGiveTheCommitsAndTagsOfOneCommitAVersion() throws Exception {
        Path versions = Files.createDirectories(dir.resolve("bundled/versions"));
        FileTime sameTime = FileTime.fromMillis(1_700_000_000_000L);
        for (String v : List.of("1.0.0+a", "1.1.0+b", "2.0.0-rc.1+c")) {
            Path tree = Files.createDirectories(versions.resolve(v));
            Files.writeString(tree.resolve("compose.yml"), "release " + v.charAt(v.length() - 1) + "\n");
            Files.setLastModifiedTime(tree.resolve("compose.yml"), sameTime);
            Path nested = Files.createDirectories(tree.resolve("conf/d ir"));
            Files.writeString(nested.resolve("caf\u00e9 \"q\".txt"), "x " + v + "\n");
            Files.createDirectories(tree.resolve("empty"));
            Path script = Files.writeString(tree.resolve("entrypoint.sh"), "#!/bin/sh\n");
            if (!v.startsWith("1.0")) {
                Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
                Files.createSymbolicLink(tree.resolve("link"), Path.of("conf/d ir"));
            }
            if (v.startsWith("1.0")) {
                Files.writeString(tree.resolve("gone-later"), "only in 1.0.0\n");
            }
        }

        RecipeFetch.Fetched imported = new RecipeFetch(new ChildProcesses(Map.of()))
                .fetch(dir.resolve("bundled"), dir.resolve("imported"), null);

        // the same versions committed and tagged one after the other, as ccci did before
        Path reference = Files.createDirectories(dir.resolve("reference"));
        ChildProcesses plain = new ChildProcesses(Map.of());
        plain.run(List.of("git", "-C", reference.toString(), "init", "-q", "--initial-branch=main"), null).orThrow();
        int day = 1;
        for (String v : List.of("1.0.0+a", "1.1.0+b", "2.0.0-rc.1+c")) {
            try (var old = Files.list(reference)) {
                for (Path p : old.filter(p -> !p.getFileName().toString().equals(".git")).toList()) {
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        org.apache.commons.io.file.PathUtils.deleteDirectory(p);
                    } else {
                        Files.delete(p);
                    }
                }
            }
            RecipeFetch.copyTree(versions.resolve(v), reference);
            Files.deleteIfExists(reference.resolve(".git/index"));
            String date = RecipeFetch.releaseDate(day++);
            Map<String, String> who = Map.of("GIT_AUTHOR_NAME", "ccci", "GIT_AUTHOR_EMAIL", "ccci@localhost",
                    "GIT_COMMITTER_NAME", "ccci", "GIT_COMMITTER_EMAIL", "ccci@localhost",
                    "GIT_AUTHOR_DATE", date, "GIT_COMMITTER_DATE", date);
            String git = reference.toString();
            plain.run(List.of("git", "-C", git, "add", "--all"), null).orThrow();
            plain.run(List.of("git", "-C", git, "-c", "commit.gpgsign=false", "commit", "--quiet", "--allow-empty", "-m",
                    "release " + v), null, who, Duration.ofMinutes(1)).orThrow();
            plain.run(List.of("git", "-C", git, "-c", "tag.gpgsign=false", "tag", "-a", v, "-m", "release " + v), null, who,
                    Duration.ofMinutes(1)).orThrow();
        }

        for (String ref : List.of("main", "1.0.0+a", "1.1.0+b", "2.0.0-rc.1+c", "1.1.0+b^{tree}")) {
            assertThat(revParse(imported.dir(), ref)).as(ref).isEqualTo(revParse(reference, ref));
        }
        assertThat(imported.commit()).isEqualTo(revParse(reference, "main"));
        assertThat(imported.releases()).extracting(RecipeVersion::text).containsExactly("1.0.0+a", "1.1.0+b", "2.0.0-rc.1+c");
        assertThat(fetch.lightweightReleaseTags(imported.dir())).isEmpty();
        // checked out at main, the link a link
        assertThat(Files.isSymbolicLink(imported.dir().resolve("link"))).isTrue();
        assertThat(imported.dir().resolve("gone-later")).doesNotExist();
        assertThat(new ChildProcesses(Map.of()).run(List.of("git", "-C", imported.dir().toString(), "status", "--porcelain"),
                null).output()).isEmpty();
        assertThat(imported.dir().resolve(".git/ccci-versions.fi")).doesNotExist();
    }

    private String revParse(Path repo, String ref) throws Exception {
        return new ChildProcesses(Map.of()).run(List.of("git", "-C", repo.toString(), "rev-parse", ref), null).orThrow()
                .output().strip();
    }

    @Test
    void aBundledVersionFolderBeyondSixtyFourBitsIsOneSentenceNamingTheFix() throws Exception {
        Path versions = Files.createDirectories(dir.resolve("bundled/versions/99999999999999999999.0.0"));
        Files.writeString(versions.resolve("compose.yml"), "services: {}\n");

        assertThatThrownBy(() -> fetch.fetch(dir.resolve("bundled"), dir.resolve("bundled-tree"), null))
                .hasMessageEndingWith("99999999999999999999.0.0: the tag 99999999999999999999.0.0 looks like a release but a"
                        + " number in it is larger than 9223372036854775807, so ccci cannot order it: retag the release as"
                        + " <major>.<minor>.<patch>+<upstream>.");
    }
}
