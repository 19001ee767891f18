package net.commoninternet.ccci.extensions.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.FetchRun;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.MavenRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-run ABRA_DIR (spec section 4) on the real file system with real git: two runs of one
 * recipe, in two helper JVMs, fetch and check out into separate trees; app env files written
 * through a run's {@code servers/} land in the canonical path; {@code CCCI_SKIP_FETCH} copies
 * the staged clone instead of sharing it.
 */
@RealProcesses
class RunAbraDirTest {

    private static final Path CUSTOM_HTML = MavenRun.ROOT.resolve("recipe-suites/recipes/custom-html");
    private static final String OLDER = "1.0.0+1.22.1";

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private Helper fetchRun(String runId) throws Exception {
        Helper run = helpers.start(Helper.java(FetchRun.class, sandbox.resolve("runs").toString(), runId,
                sandbox.resolve("abra").toString(), CUSTOM_HTML.toString(), "custom-html"));
        run.awaitLine("run " + runId + ": started");
        return run;
    }

    @Test
    void concurrentRunsOfOneRecipeFetchIntoSeparateTreesThatNeverSeeEachOthersChanges() throws Exception {
        Helper a = fetchRun("A");
        Helper b = fetchRun("B");

        a.send("fetch");
        b.send("fetch");
        String fetchedA = a.awaitLine("run A: fetched");
        String fetchedB = b.awaitLine("run B: fetched");
        assertThat(fetchedA).contains("tree=" + sandbox.resolve("runs/A/abra/recipes/custom-html"));
        assertThat(fetchedB).contains("tree=" + sandbox.resolve("runs/B/abra/recipes/custom-html"));
        String head = value(fetchedA, "commit");
        assertThat(value(fetchedB, "commit")).isEqualTo(head);

        a.send("change " + OLDER + " from-a");
        a.awaitLine("run A: changed");
        b.send("report");
        String reportB = b.awaitLine("run B: report");
        assertThat(value(reportB, "head")).isEqualTo(head);
        assertThat(value(reportB, "files")).doesNotContain("from-a");

        b.send("change " + head + " from-b");
        b.awaitLine("run B: changed");
        a.send("report");
        String reportA = a.awaitLine("run A: report");
        assertThat(value(reportA, "head")).isNotEqualTo(head);
        assertThat(value(reportA, "files")).contains("from-a").doesNotContain("from-b");

        a.send("end");
        b.send("end");
        assertThat(a.awaitExit()).as(a.describe()).isZero();
        assertThat(b.awaitExit()).as(b.describe()).isZero();
        assertThat(sandbox.resolve("abra/recipes/custom-html")).doesNotExist();
    }

    @Test
    void envFilesWrittenThroughTheRunsServersLandInTheCanonicalPath() throws Exception {
        Path canonical = sandbox.resolve("abra");
        RunAbraDir abra = RunAbraDir.create(sandbox.resolve("runs/1"), canonical);
        String domain = "cust-abcdef.ci.commoninternet.net";

        EnvFile.empty().set("DOMAIN", domain).write(abra.envFile(domain));
        ChildProcesses children = new ChildProcesses(Map.of("ABRA_DIR", abra.root().toString()));
        children.run(List.of("sh", "-c", "printf 'DOMAIN=by-a-child\\n' > \"$ABRA_DIR/servers/default/child.env\""), null)
                .orThrow();

        Path canonicalEnv = canonical.resolve("servers/default/" + domain + ".env");
        assertThat(canonicalEnv).isRegularFile().content().contains("DOMAIN=" + domain);
        assertThat(Files.isSameFile(canonicalEnv, abra.envFile(domain))).isTrue();
        assertThat(canonical.resolve("servers/default/child.env")).content().isEqualTo("DOMAIN=by-a-child\n");
        assertThat(abra.root().resolve("servers")).isSymbolicLink();
    }

    @Test
    void recipesStartsEmptyEvenWhenARunIdIsReused() throws Exception {
        RunAbraDir first = RunAbraDir.create(sandbox.resolve("runs/dev"), sandbox.resolve("abra"));
        Files.createDirectories(first.recipe("custom-html"));
        Files.writeString(sandbox.resolve("abra/servers/kept.env"), "A=1\n");

        RunAbraDir again = RunAbraDir.create(sandbox.resolve("runs/dev"), sandbox.resolve("abra"));

        assertThat(again.recipes()).isEmptyDirectory();
        assertThat(again.servers().resolve("kept.env")).isRegularFile();
    }

    @Test
    void skipFetchCopiesTheStagedCloneSoTheRunNeverChecksOutUnderIt() throws Exception {
        Path canonical = sandbox.resolve("abra");
        ChildProcesses children = new ChildProcesses(Map.of());
        RecipeFetch fetch = new RecipeFetch(children);
        String stagedHead = fetch.fetch(CUSTOM_HTML, canonical.resolve("recipes/custom-html"), null).commit();
        RunAbraDir abra = RunAbraDir.create(sandbox.resolve("runs/7"), canonical);

        RecipeFetch.Fetched copy = fetch.copyStaged(abra.stagedRecipe("custom-html"), abra.recipe("custom-html"), OLDER);
        Files.writeString(copy.dir().resolve("from-the-run"), "x");

        assertThat(copy.dir()).isEqualTo(abra.recipe("custom-html"));
        assertThat(copy.commit()).isNotEqualTo(stagedHead);
        assertThat(copy.releases()).hasSize(2);
        String staged = children.run(List.of("git", "-C", canonical.resolve("recipes/custom-html").toString(),
                "rev-parse", "HEAD"), null).orThrow().output().strip();
        assertThat(staged).isEqualTo(stagedHead);
        assertThat(canonical.resolve("recipes/custom-html/from-the-run")).doesNotExist();
    }

    @Test
    void skipFetchWithNothingStagedFailsWithOneSentenceNamingTheFix() throws Exception {
        RunAbraDir abra = RunAbraDir.create(sandbox.resolve("runs/8"), sandbox.resolve("abra"));

        assertThatThrownBy(() -> new RecipeFetch(new ChildProcesses(Map.of()))
                .copyStaged(abra.stagedRecipe("custom-html"), abra.recipe("custom-html"), null))
                .hasMessageContaining("CCCI_SKIP_FETCH is set but").hasMessageContaining("unset CCCI_SKIP_FETCH");
    }

    private static String value(String line, String name) {
        for (String word : line.split(" ")) {
            if (word.startsWith(name + "=")) {
                return word.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + "= in: " + line);
    }
}
