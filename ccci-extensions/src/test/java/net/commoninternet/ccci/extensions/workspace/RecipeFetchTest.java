package net.commoninternet.ccci.extensions.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
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
        java.nio.file.attribute.FileTime sameTime = java.nio.file.attribute.FileTime.fromMillis(1_700_000_000_000L);
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
        assertThat(fetch.show(tree.dir(), "1.9.0+a", "compose.yml")).contains("release a\n");
        assertThat(fetch.show(tree.dir(), "1.10.0+b", "compose.yml")).contains("release b\n");
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
