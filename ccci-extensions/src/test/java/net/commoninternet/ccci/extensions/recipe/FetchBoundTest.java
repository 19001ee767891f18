package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a fetch may write ({@code ccci.fetch.max-bytes}, {@code ccci.fetch.max-files}), in real git
 * repositories: a file of zeros that packs to a few KiB but checks out to many MiB (a zlib bomb,
 * small), too many files, a move to a ref whose tree is too large, a repository larger than the
 * bound, a plain folder, a {@code versions/} folder and a staged clone past it. Each is refused in
 * one sentence naming the bounds, before the checkout (or the clone, or the copy), and nothing of it
 * is left where the run's tree would be. The 2 GiB bomb of the held-out case is
 * concurrency-suite's {@code RecipeBombTest}.
 */
class FetchBoundTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    private Path source;
    private final ChildProcesses children = new ChildProcesses(Map.of("GIT_AUTHOR_NAME", "t", "GIT_AUTHOR_EMAIL", "t@t",
            "GIT_COMMITTER_NAME", "t", "GIT_COMMITTER_EMAIL", "t@t"));
    private final RecipeFetch fetch = new RecipeFetch(children, new FetchBound(MIB, 20));

    @BeforeEach
    void repository() throws Exception {
        source = Files.createDirectories(dir.resolve("bomb"));
        git("init", "-q", "--initial-branch=main");
        Files.writeString(source.resolve("compose.yml"), "services: {app: {image: x:1}}\n");
        Files.writeString(source.resolve(".env.sample"), "TYPE=bomb\n");
        git("add", "-A");
        git("commit", "-qm", "small");
        git("tag", "-a", "1.0.0+1", "-m", "small");
    }

    private String git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", source.toString(), "-c", "tag.gpgsign=false",
                "-c", "commit.gpgsign=false"));
        command.addAll(List.of(args));
        return children.run(command, null).orThrow().output().strip();
    }

    /** {@code bytes} of zeros as {@code name}, committed: a loose object of a few KiB. */
    private String commitZeros(String name, long bytes) throws Exception {
        try (OutputStream out = Files.newOutputStream(source.resolve(name))) {
            byte[] zeros = new byte[1 << 16];
            for (long left = bytes; left > 0; left -= zeros.length) {
                out.write(zeros, 0, (int) Math.min(left, zeros.length));
            }
        }
        git("add", "-A");
        git("commit", "-qm", "zeros");
        return git("rev-parse", "HEAD");
    }

    private static long bytesUnder(Path folder) throws Exception {
        if (!Files.exists(folder)) {
            return 0;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Test
    void aFileThatPacksSmallButChecksOutLargeIsRefusedBeforeItsCheckoutAndNothingOfItIsLeft() throws Exception {
        String head = commitZeros("zeros.bin", 16 * MIB);
        assertThat(bytesUnder(source.resolve(".git"))).as("a bomb: its repository is small").isLessThan(MIB);
        Path tree = dir.resolve("runs/r1/abra/recipes/bomb");

        assertThatThrownBy(() -> fetch.fetch(source, tree, null)).isInstanceOf(FetchBound.TooLarge.class)
                .hasMessage("the recipe bomb at " + head.substring(0, 12) + " is refused before its checkout: its tree holds"
                        + " 3 files, 16 MB (the largest zeros.bin, 16 MB), more than the 1 MB and 20 files a fetch may write"
                        + " on this host (-Dccci.fetch.max-bytes, -Dccci.fetch.max-files): take what the recipe does not need"
                        + " out of it, or raise the bounds on this host.");
        assertThat(tree).doesNotExist();
        assertThat(bytesUnder(dir.resolve("runs"))).isZero();

        assertThatThrownBy(() -> fetch.fetch(source, dir.resolve("runs/r2/bomb"), "main"))
                .hasMessageStartingWith("the recipe bomb at main is refused before its checkout: its tree holds 3 files, 16 MB");
        assertThat(dir.resolve("runs/r2/bomb")).doesNotExist();
    }

    @Test
    void aTreeOfMoreFilesThanTheBoundIsRefusedBeforeItsCheckout() throws Exception {
        Path many = Files.createDirectories(source.resolve("many"));
        for (int i = 0; i < 30; i++) {
            Files.writeString(many.resolve("f" + i), "x");
        }
        git("add", "-A");
        git("commit", "-qm", "many");

        assertThatThrownBy(() -> fetch.fetch(source, dir.resolve("tree"), null))
                .hasMessageContaining("is refused before its checkout: its tree holds 32 files, 70 bytes");
        assertThat(dir.resolve("tree")).doesNotExist();
    }

    /** The upgrade moves the run's tree to another ref: that tree is judged too, and the tree stays where it was. */
    @Test
    void aMoveToARefWhoseTreeIsTooLargeIsRefusedAndTheTreeStaysAtItsRef() throws Exception {
        RecipeFetch.Fetched small = fetch.fetch(source, dir.resolve("tree"), "1.0.0+1");
        commitZeros("zeros.bin", 16 * MIB);

        RecipeFetch.Fetched refetched = fetch.fetch(source, dir.resolve("tree2"), "1.0.0+1");
        assertThatThrownBy(() -> fetch.moveTo(refetched.dir(), "main"))
                .hasMessageStartingWith("the recipe tree2 at main is refused before its checkout: its tree holds 3 files, 16 MB");
        assertThat(refetched.dir().resolve("zeros.bin")).doesNotExist();
        assertThat(refetched.dir().resolve("compose.yml")).exists();
        assertThat(small.dir().resolve("zeros.bin")).doesNotExist();
    }

    /** What a local clone copies is the repository as it lies: past the bound, no clone is begun. */
    @Test
    void aRepositoryLargerThanTheBoundIsRefusedBeforeItsClone() throws Exception {
        byte[] noise = new byte[(int) (2 * MIB)];
        new Random(7).nextBytes(noise); // incompressible: the repository itself is large
        Files.write(source.resolve("noise.bin"), noise);
        git("add", "-A");
        git("commit", "-qm", "noise");

        assertThatThrownBy(() -> fetch.fetch(source, dir.resolve("tree"), null)).isInstanceOf(FetchBound.TooLarge.class)
                .hasMessage("the recipe bomb is refused before its clone: its repository (.git) holds more than the 1 MB a"
                        + " fetch may write on this host (-Dccci.fetch.max-bytes): prune what the repository does not need,"
                        + " or raise the bound on this host.");
        assertThat(dir.resolve("tree")).doesNotExist();
    }

    /** A plain recipe folder and a versions/ folder are copied as they are: walked first, never through a link. */
    @Test
    void aPlainFolderOrVersionsFolderPastTheBoundIsRefusedBeforeItsCopy() throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain"));
        Files.writeString(plain.resolve("compose.yml"), "services: {}\n");
        Files.write(plain.resolve("big.bin"), new byte[(int) (2 * MIB)]);

        assertThatThrownBy(() -> fetch.fetch(plain, dir.resolve("plain-tree"), null))
                .hasMessageStartingWith("the recipe plain is refused before its copy: its folder holds at least");
        assertThat(dir.resolve("plain-tree")).doesNotExist();

        Path versions = Files.createDirectories(dir.resolve("bundled/versions/1.0.0+1"));
        for (int i = 0; i < 25; i++) {
            Files.writeString(versions.resolve("f" + i), "x");
        }
        assertThatThrownBy(() -> fetch.fetch(dir.resolve("bundled"), dir.resolve("bundled-tree"), null))
                .hasMessageStartingWith("the recipe bundled is refused before its copy: its versions/ folder holds at least 21 files");
        assertThat(dir.resolve("bundled-tree")).doesNotExist();

        // the walk never goes through a link (/usr holds far more than the bound): the link is refused for what it is
        Files.delete(plain.resolve("big.bin"));
        Files.createSymbolicLink(plain.resolve("usr"), Path.of("/usr"));
        assertThatThrownBy(() -> fetch.fetch(plain, dir.resolve("plain-tree"), null))
                .hasMessageEndingWith("usr is a symbolic link to /usr, outside the recipe: ccci reads a recipe from its own"
                        + " tree only and never follows a link out of it; replace the link by the file itself.");
        Files.delete(plain.resolve("usr"));
        assertThat(fetch.fetch(plain, dir.resolve("plain-tree2"), null).dir().resolve("compose.yml")).exists();
    }

    @Test
    void aStagedCloneWhoseWorkingTreeIsPastTheBoundIsRefusedBeforeItsCopy() throws Exception {
        Files.write(source.resolve("untracked.bin"), new byte[(int) (2 * MIB)]);

        assertThatThrownBy(() -> fetch.copyStaged(source, dir.resolve("bomb-copy"), null))
                .hasMessageStartingWith("the recipe bomb-copy is refused before its copy: its staged clone's working tree holds"
                        + " at least");
        assertThat(dir.resolve("bomb-copy")).doesNotExist();
    }
}
