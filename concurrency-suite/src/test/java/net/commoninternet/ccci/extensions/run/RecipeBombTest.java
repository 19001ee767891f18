package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.FetchBound;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The held-out case, for real: a recipe repository whose {@code .git} is 9 MB and whose tree holds a
 * 2 GiB file of zeros (one loose object, zlib as git writes it). Before, a run checked out 2 GiB into
 * the runs folder, a digest read the file whole and the JVM threw {@code OutOfMemoryError}, and the
 * JVM stayed alive for minutes after its RUN SUMMARY (the command's shutdown hook waited for a plan's
 * end that the error had skipped). Now the fetch refuses the tree before its checkout, in one
 * sentence, nothing of it left in the runs folder; with the bound raised so the file is checked out,
 * nothing reads it whole, the run fails for the reason of its own, and its JVM exits promptly after
 * its RUN SUMMARY, timed here from outside.
 */
@RealEngine
class RecipeBombTest {

    private static final long ZEROS = 2L << 30;
    private static final Duration PROMPT = Duration.ofSeconds(60);

    @TempDir
    static Path shared;

    @TempDir
    Path sandbox;

    private static Path recipes;

    @BeforeAll
    static void bombs() throws Exception {
        recipes = shared.resolve("recipes");
        Path object = null;
        String id = null;
        for (String recipe : List.of("bomb", "bombimage")) {
            Path repo = Files.createDirectories(recipes.resolve(recipe));
            git(repo, "init", "-q", "--initial-branch=main");
            String image = recipe.equals("bomb") ? LocalImages.BUSYBOX : "ccci.local/absent:1";
            Files.writeString(repo.resolve("compose.yml"), """
                    version: "3.8"
                    services:
                      app:
                        image: %s
                        networks: [proxy]
                        deploy:
                          labels:
                            - "traefik.enable=true"
                            - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                    networks:
                      proxy:
                        external: true
                    """.formatted(image), StandardCharsets.UTF_8);
            Files.writeString(repo.resolve(".env.sample"), "TYPE=" + recipe + "\n");
            if (object == null) {
                id = zeros(repo.resolve(".git/objects"));
                object = repo.resolve(".git/objects").resolve(id.substring(0, 2)).resolve(id.substring(2));
            } else {
                Path copy = Files.createDirectories(repo.resolve(".git/objects").resolve(id.substring(0, 2)));
                Files.copy(object, copy.resolve(id.substring(2)));
            }
            git(repo, "add", "compose.yml", ".env.sample");
            git(repo, "update-index", "--add", "--cacheinfo", "100644," + id + ",big.bin");
            git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-qm", "bomb");
        }
        assertThat(bytesUnder(recipes.resolve("bomb/.git"))).as("the repository is a few MB").isLessThan(16L << 20);
    }

    /**
     * {@value #ZEROS} zeros as one loose object (zlib at git's own loose level, 1), written without the
     * file ever existing; returns its id.
     */
    private static String zeros(Path objects) throws Exception {
        byte[] header = ("blob " + ZEROS + "\0").getBytes(StandardCharsets.US_ASCII);
        MessageDigest sha = MessageDigest.getInstance("SHA-1");
        sha.update(header);
        Path loose = Files.createDirectories(objects).resolve("zeros.tmp");
        try (OutputStream out = new DeflaterOutputStream(new BufferedOutputStream(Files.newOutputStream(loose)),
                new Deflater(Deflater.BEST_SPEED), 1 << 16)) {
            out.write(header);
            byte[] block = new byte[1 << 20];
            for (long left = ZEROS; left > 0; left -= block.length) {
                out.write(block);
                sha.update(block);
            }
        }
        String id = HexFormat.of().formatHex(sha.digest());
        Files.move(loose, Files.createDirectories(objects.resolve(id.substring(0, 2))).resolve(id.substring(2)));
        return id;
    }

    private static void git(Path repo, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        new ChildProcesses(Map.of()).run(command, null).orThrow();
    }

    private static long bytesUnder(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return 0;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private MavenRun run(String recipe, String... more) throws IOException {
        List<String> properties = new java.util.ArrayList<>(List.of("-Drecipe=" + recipe, "-Dccci.recipes=" + recipes,
                "-Dccci.stages=install", "-Dccci.run-id=bomb"));
        properties.addAll(List.of(more));
        return MavenRun.start(sandbox.resolve(recipe + ".log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), properties.toArray(String[]::new));
    }

    /** What the bound costs, measured: the refusal takes git's listing, and nothing is left. */
    @Test
    void theFetchRefusesTheBombBeforeItsCheckoutAndLeavesNothing() throws Exception {
        Path tree = sandbox.resolve("runs/r/abra/recipes/bomb");
        long start = System.nanoTime();

        assertThatThrownBy(() -> new RecipeFetch(new ChildProcesses(Map.of()), FetchBound.DEFAULT)
                .fetch(recipes.resolve("bomb"), tree, null)).isInstanceOf(FetchBound.TooLarge.class)
                .hasMessageContaining("is refused before its checkout: its tree holds 3 files, 2 GB (the largest big.bin, 2 GB)");

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(tree).doesNotExist();
        assertThat(bytesUnder(sandbox.resolve("runs"))).isZero();
    }

    @Test
    void aRunOfTheBombIsRefusedInOneSentenceLeavesNothingInTheRunsFolderAndExits() throws Exception {
        MavenRun run = run("bomb");
        try {
            String refusal = run.awaitLine("is refused before its checkout", Duration.ofMinutes(5));
            long refused = System.nanoTime();
            int exit = run.waitFor(PROMPT);

            assertThat(Duration.ofNanos(System.nanoTime() - refused)).isLessThan(PROMPT);
            assertThat(exit).as(run.output()).isEqualTo(1);
            assertThat(refusal).contains("!! the recipe bomb at ", " is refused before its checkout: its tree holds 3 files,"
                    + " 2 GB (the largest big.bin, 2 GB), more than the 100 MB and 10000 files a fetch may write on this host"
                    + " (-Dccci.fetch.max-bytes, -Dccci.fetch.max-files): take what the recipe does not need out of it, or"
                    + " raise the bounds on this host. !!");
            assertThat(sandbox.resolve("runs/bomb/abra/recipes/bomb")).doesNotExist();
            assertThat(bytesUnder(sandbox.resolve("runs"))).as("the runs folder after").isLessThan(1L << 20);
        } finally {
            if (run.process.isAlive()) {
                run.kill();
            }
        }
    }

    /**
     * With the bound raised the 2 GiB file is checked out: no read of it is whole (the compose memo's
     * digest sizes it first), the run fails for its own reason (its image), and the JVM exits within
     * {@link #PROMPT} of its RUN SUMMARY, measured from outside.
     */
    @Test
    void aFailedRunWithAGibibytesFileInItsTreeReadsItNeverWholeAndItsJvmExitsPromptlyAfterItsSummary() throws Exception {
        MavenRun run = run("bombimage", "-Dccci.fetch.max-bytes=" + (3L << 30));
        try {
            run.awaitLine("== END RUN SUMMARY ", Duration.ofMinutes(8)); // its run's mark follows
            long summary = System.nanoTime();
            int exit = run.waitFor(PROMPT);

            String out = run.output();
            assertThat(Duration.ofNanos(System.nanoTime() - summary)).as(out).isLessThan(PROMPT);
            assertThat(exit).as(out).isEqualTo(1);
            assertThat(out).contains("install > deploy: failed — image ccci.local/absent:1 of service app is neither on this"
                    + " host nor pullable (ccci.local images are built on this host, never pulled)")
                    .doesNotContain("OutOfMemoryError");
            assertThat(sandbox.resolve("runs/bomb/abra/recipes/bombimage/big.bin")).hasSize(ZEROS);
        } finally {
            if (run.process.isAlive()) {
                run.kill();
            }
        }
    }
}
