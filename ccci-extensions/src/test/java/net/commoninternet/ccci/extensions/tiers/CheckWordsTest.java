package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.execution.StandaloneRun;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.Backups;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.LintResult;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.ServiceLogs;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import net.commoninternet.ccci.spi.Versions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every built-in check's failure, said in the maintainer's words: each tier ccci ships (found as
 * the engine finds them) runs its operation and its checks against an app that fails every one
 * of them, and each failure must say what was expected and what was found in the recipe's terms,
 * never AssertJ's phrasing or a Java value's {@code toString}. A check added to a tier is run here
 * too, and must fail here: the guard cannot pass by running nothing.
 */
class CheckWordsTest {

    /** What no maintainer-facing text of a built-in check may carry: AssertJ's phrasing, an Optional's or a record's toString. */
    static final List<Pattern> NOT_WORDS = List.of(Pattern.compile("Expecting"), Pattern.compile("Optional\\["),
            Pattern.compile("\\b[A-Z][A-Za-z0-9]*\\[[a-z][A-Za-z0-9]*="), Pattern.compile("Optional\\.empty"));

    private static final String DOMAIN = "cust-1a2b3c.ci.commoninternet.net";
    private static final String HEAD = "a942f67b4302d0084155c38fde623954a795a58a";
    private static final Map<String, String> IMAGES = Map.of("app", "ccci.local/busybox:1");
    private static final String NOT_CONVERGED = "app: 0/1 running (last task error: task: non-zero exit (1))";

    @TempDir
    Path dir;

    private StandaloneRun run;

    @BeforeEach
    void run() {
        RunSettings settings = new RunSettings(new RunSettings.Subject("custom-html-broken", 0, null, "words"),
                Set.of(Tier.values()), "swarm", new RunSettings.HostPaths(dir, new RunSettings.Namespace(dir.resolve("locks"),
                        AppNaming.DEFAULT_SUFFIX), dir.resolve("runs"), dir.resolve("abra"), Optional.empty()),
                new RunSettings.Options(Duration.ofMinutes(5), false, Set.of(), "ccci.local/busybox:1"));
        run = StandaloneRun.of(settings, dir);
    }

    /** ccci's own tiers, in run order, as the engine's ServiceLoader finds them. */
    private static List<TierPlugin> builtIn() {
        return ServiceLoader.load(TierPlugin.class).stream().map(ServiceLoader.Provider::get)
                .filter(t -> t.getClass().getPackageName().equals(CheckWordsTest.class.getPackageName()))
                .sorted((a, b) -> a.tier().compareTo(b.tier())).toList();
    }

    /** Each tier against {@code app}: its operation's failure and each of its checks' failures, by {@code tier > check}. */
    private Map<String, String> failures(BrokenApp app) {
        Map<String, String> failed = new LinkedHashMap<>();
        for (TierPlugin plugin : builtIn()) {
            TierContext tier = new WithKeys(run.tier(plugin.tier(), app), BrokenApp.KEYS);
            try {
                plugin.operate(tier);
            } catch (AssertionError e) {
                failed.put(plugin.tier().id(), e.getMessage());
            } catch (Skipped e) {
                // not a failure
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            if (app.operationsFail) {
                continue;
            }
            for (Check check : Stream.concat(plugin.checks().stream(), plugin.lastChecks().stream()).toList()) {
                try {
                    check.verify(tier);
                } catch (AssertionError e) {
                    failed.put(plugin.tier().id() + " > " + check.name(), e.getMessage());
                } catch (Skipped e) {
                    // not a failure
                } catch (Exception e) {
                    throw new IllegalStateException(plugin.tier().id() + " > " + check.name() + " threw", e);
                }
            }
        }
        return failed;
    }

    @Test
    void everyBuiltInCheckFailsHereAndSaysSoInTheRecipesTerms() {
        Map<String, String> failed = failures(new BrokenApp(false));

        List<String> every = builtIn().stream().flatMap(t -> Stream.concat(t.checks().stream(), t.lastChecks().stream())
                .map(c -> t.tier().id() + " > " + c.name())).toList();
        assertThat(every).as("the built-in checks").hasSizeGreaterThan(15);
        assertThat(failed.keySet()).as("every built-in check's failure path ran:\n%s", lines(failed)).containsAll(every);
        assertInWords(failed);
        assertThat(failed.get("upgrade > moved-to-head")).isEqualTo("the upgrade left 1.0.0+1.36.0 running with the same"
                + " images; the head under test is 1.1.0+1.36.1, but its compose.yml still labels the version 1.0.0+1.36.0"
                + " and runs app ccci.local/busybox:1: bump its coop-cloud.${STACK_NAME}.version label");
        assertThat("upgrade > moved-to-head: " + failed.get("upgrade > moved-to-head")).as("whole in summary.md and the RUN"
                + " SUMMARY, which keep 300 characters of a reason").hasSizeLessThanOrEqualTo(300);
        assertThat(failed.get("install > serves-http")).isEqualTo("GET /health of " + DOMAIN + " (sent to http://tasks.app:80/health,"
                + " as the proxy would) answered 502 Bad Gateway until HTTP_TIMEOUT 300 s ran out; HEALTH_OK expects 200 or 204");
        assertThat(failed.get("install > converged")).contains(NOT_CONVERGED);
        assertThat(failed.get("install > deployed-once")).isEqualTo(BrokenApp.DEPLOYED_TWICE);
        assertThat(failed.get("install > ready-probe")).isEqualTo("READY_PROBE http:/ready did not pass within HTTP_TIMEOUT 300 s:"
                + " GET /ready answered 503; HEALTH_OK expects 200 or 204");
        assertThat(failed.get("upgrade > converged")).isEqualTo("swarm did not end the upgrade with every service converged: "
                + NOT_CONVERGED);
        assertThat(failed.get("backup > snapshot-created")).isEqualTo("the backup named no snapshot: expected a restic snapshot"
                + " id (8 to 64 hex digits), got \"Fatal: unable to open repository\"");
        assertThat(failed.get("backup > backup-verified")).startsWith("BACKUP_VERIFY exec:app:test -s /var/www/index.html did"
                + " not pass after the backup: ");
        assertThat(failed.get("restore > marker-restored")).startsWith("the restore did not bring the backup's data back:"
                + " /var/www/.ccci-restore-marker in service app reads \"changed-before-restore\" after the restore, where the backup"
                + " held \"seeded-by-run-words-");
        assertThat(failed).containsEntry("lint > R002-healthchecks", "critical lint error (abra would not deploy the recipe):"
                + " services without a healthcheck: app");
    }

    @Test
    void everyOperationsFailureSaysItInTheRecipesTerms() {
        Map<String, String> failed = failures(new BrokenApp(true));

        assertThat(failed).containsOnlyKeys("upgrade", "backup");
        assertInWords(failed);
        assertThat(failed.get("upgrade")).isEqualTo("the upgrade to 1.1.0+1.36.1 did not roll out: " + NOT_CONVERGED);
        assertThat(failed.get("backup")).isEqualTo("could not seed the restore marker /var/www/.ccci-restore-marker in service app:"
                + " writing it exited 1: sh: can't create /var/www/.ccci-restore-marker: Read-only file system");
        // RESTORE's own operation, on a backup that held a marker the app no longer lets it change
        TierContext restore = new WithKeys(run.tier(Tier.RESTORE, new BrokenApp(true)), BrokenApp.KEYS);
        restore.store().put(TierOutputs.BACKUP, new TierOutputs.Backup("857ca6bb", Optional.of(new TierOutputs.Marker("app",
                "/var/www/" + BackupTier.MARKER, "seeded"))));
        AssertionError changing = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> new RestoreTier().operate(restore));
        assertThat(changing.getMessage()).isEqualTo("could not change the restore marker /var/www/.ccci-restore-marker in"
                + " service app before the restore: writing it exited 1: sh: can't create /var/www/.ccci-restore-marker:"
                + " Read-only file system");
        assertInWords(Map.of("restore", changing.getMessage()));
    }

    /** A marker the restore left unreadable: its error is said as the read's, never compared or quoted as the file's data. */
    @Test
    void aMarkerTheRestoreLeftUnreadableIsSaidAsSuchNotAsWhatTheFileReads() {
        TierContext tier = new WithKeys(run.tier(Tier.RESTORE, new BrokenApp(false)), BrokenApp.KEYS);
        String file = "/var/www/" + BackupTier.MARKER;
        tier.store().put(TierOutputs.BACKUP, new TierOutputs.Backup("857ca6bb", Optional.of(new TierOutputs.Marker("app",
                file, "seeded"))));
        tier.store().put(TierOutputs.RESTORED, new TierOutputs.Restored("cat: can't open '" + file
                + "': No such file or directory\n", 1));
        Check restored = new RestoreTier().checks().stream().filter(c -> c.name().equals("marker-restored")).findFirst()
                .orElseThrow();

        AssertionError failed = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> restored.verify(tier));

        assertThat(failed.getMessage()).isEqualTo("the restore did not bring the backup's data back: " + file + " in service app"
                + " could not be read after the restore (cat exited 1): cat: can't open '" + file + "': No such file or"
                + " directory; the backup held \"seeded\"");
        assertThat(failed.getMessage()).doesNotContain("reads \"");
        assertInWords(Map.of("restore > marker-restored", failed.getMessage()));
    }

    /** An untagged head is named by its commit; an app that moved but not to the head's label says both. */
    @Test
    void theHeadUnderTestIsItsReleaseOrItsCommitAndEachWayOfNotMovingIsSaid() {
        Versions.Upgrade untagged = new Versions.Upgrade(Optional.of("1.0.0+1.36.0"), HEAD, Optional.of("1.1.0+1.36.1"),
                "upgrade from 1.0.0+1.36.0");
        assertThat(Words.head(untagged)).isEqualTo("commit a942f67b4302");

        Map<String, String> said = new LinkedHashMap<>();
        for (Versions.Deployed after : List.of(new Versions.Deployed(Optional.empty(), Map.of("app", "ccci.local/busybox:1.1")),
                new Versions.Deployed(Optional.of("1.0.0+1.36.0"), Map.of("app", "ccci.local/busybox:1.1")),
                new Versions.Deployed(Optional.of("1.0.1+1.36.1"), Map.of("app", "ccci.local/busybox:1.1")))) {
            BrokenApp app = new BrokenApp(false);
            TierContext tier = new WithKeys(run.tier(Tier.UPGRADE, app), BrokenApp.KEYS);
            tier.store().put(TierOutputs.UPGRADE, new TierOutputs.Upgrade(app.versions().deployed(), after));
            Check moved = new UpgradeTier().checks().stream().filter(c -> c.name().equals("moved-to-head")).findFirst().orElseThrow();
            said.put(after.version().orElse("none"), org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                    () -> moved.verify(tier)).getMessage());
        }

        assertInWords(said);
        assertThat(said.get("none")).isEqualTo("the upgraded app carries no version label; the head under test is 1.1.0+1.36.1:"
                + " label its deploy with coop-cloud.${STACK_NAME}.version (images now: app ccci.local/busybox:1.1)");
        assertThat(said.get("1.0.0+1.36.0")).isEqualTo("the upgrade left the version label at the base's 1.0.0+1.36.0 (app"
                + " ccci.local/busybox:1 -> ccci.local/busybox:1.1); the head under test is 1.1.0+1.36.1: bump its"
                + " coop-cloud.${STACK_NAME}.version label");
        assertThat(said.get("1.0.1+1.36.1")).isEqualTo("the upgrade left 1.0.1+1.36.1 running; the head under test is"
                + " 1.1.0+1.36.1, whose compose.yml labels the version 1.0.0+1.36.0");
    }

    /** The guard itself catches what the checks used to say. */
    @Test
    void theGuardCatchesAssertJsPhrasingAndJavasToString() {
        Versions.Deployed deployed = new Versions.Deployed(Optional.of("1.0.0+1.36.0"), IMAGES);
        String old = "[the deployed app changed] Expecting actual: " + deployed + " not to be equal to: " + deployed;

        for (String leak : List.of(old, "version " + Optional.of("1.0.0"), "found " + deployed)) {
            assertThat(NOT_WORDS.stream().anyMatch(p -> p.matcher(leak).find())).as(leak).isTrue();
        }
        assertThat(NOT_WORDS.stream().anyMatch(p -> p.matcher("images: app ccci.local/busybox:1 [emerg] at [2026]").find()))
                .isFalse();
    }

    private static void assertInWords(Map<String, String> failed) {
        failed.forEach((where, message) -> {
            assertThat(message).as(where).isNotBlank().doesNotContain("\n");
            NOT_WORDS.forEach(p -> assertThat(p.matcher(message).find()).as("%s says %s, which matches %s", where, message, p)
                    .isFalse());
        });
    }

    /**
     * An app that fails every built-in check, as a real one can: not converged, a 502, a probe that
     * never passes, a backup without a snapshot, a restore that brings nothing back, an upgrade
     * that redeployed the same release (the canary's), a critical lint error for every rule. With
     * {@code operationsFail}, the operations fail instead: the upgrade does not roll out and no
     * file can be written.
     */
    private static final class BrokenApp implements LiveRun, LiveApp, Probes, Backups, Versions {

        static final CiKeys KEYS = CiKeys.validated(Map.of("HEALTH_PATH", "/health", "HEALTH_OK", List.of(200, 204),
                "READY_PROBE", "http:/ready", "BACKUP_VERIFY", "exec:app:test -s /var/www/index.html"));
        static final String DEPLOYED_TWICE = "this run deployed its app " + DOMAIN + " 2 times: a run deploys it once";
        private static final String READ_ONLY = "sh: can't create /var/www/.ccci-restore-marker: Read-only file system";

        final boolean operationsFail;

        BrokenApp(boolean operationsFail) {
            this.operationsFail = operationsFail;
        }

        @Override
        public LiveApp app() {
            return this;
        }

        @Override
        public String domain() {
            return DOMAIN;
        }

        @Override
        public CiKeys keys() {
            return KEYS;
        }

        @Override
        public Response get(String path) {
            return new Response(502, "Bad Gateway");
        }

        @Override
        public Response exec(String service, String script) {
            if (script.startsWith("cat ")) {
                return new Response(0, "changed-before-restore");
            }
            return operationsFail ? new Response(1, READ_ONLY + "\n") : new Response(0, "");
        }

        @Override
        public HookContext hookContext(Tier op) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Convergence convergence() {
            return new Convergence(false, NOT_CONVERGED);
        }

        @Override
        public Convergence inspect() {
            return convergence();
        }

        @Override
        public Convergence awaitConverged() {
            return convergence();
        }

        @Override
        public Optional<String> deployOnceViolation() {
            return Optional.of(DEPLOYED_TWICE);
        }

        @Override
        public Probes probes() {
            return this;
        }

        @Override
        public Backups backups() {
            return this;
        }

        @Override
        public Versions versions() {
            return this;
        }

        @Override
        public Map<String, LintResult> lint() {
            Map<String, LintResult> results = new LinkedHashMap<>();
            new LintTier().checks().forEach(c -> results.put(c.name(), LintResult.critical(
                    c.name().equals("R002-healthchecks") ? "services without a healthcheck: app" : c.name() + " does not hold")));
            return results;
        }

        @Override
        public ServiceLogs serviceLogs() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Answer> awaitHttp(String path, List<Integer> ok, Duration timeout) {
            return Optional.of(new Answer("http://tasks.app:80" + path, 502, "Connecting to tasks.app:80 (10.0.1.5:80)\n"
                    + "  HTTP/1.1 502 Bad Gateway\n  Server: nginx\n"));
        }

        @Override
        public Outcome await(CiKeys.Probe probe, Duration timeout) {
            return new Outcome(false, "GET /ready answered 503");
        }

        @Override
        public Outcome retry(CiKeys.Probe probe, int attempts) {
            return new Outcome(false, "`test -s /var/www/index.html` in app exited 1");
        }

        @Override
        public Optional<Picture> picture(String path, int width, Path png, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public CompletableFuture<Optional<Picture>> pictureAhead(String path, int width, Path png, Duration timeout) {
            return CompletableFuture.completedFuture(Optional.empty());
        }

        @Override
        public Outcome readiness(CiKeys.Probe probe, Duration timeout) {
            return await(probe, timeout);
        }

        @Override
        public boolean labelled() {
            return true;
        }

        @Override
        public List<Place> places() {
            return List.of(new Place("app", "/var/www"));
        }

        @Override
        public String backup() {
            return "Fatal: unable to open repository";
        }

        @Override
        public void restore(String snapshotId) {
        }

        @Override
        public Upgrade upgrade() {
            return new Upgrade(Optional.of("1.0.0+1.36.0"), HEAD, Optional.of("1.0.0+1.36.0"), Optional.of("1.1.0+1.36.1"),
                    "upgrade from 1.0.0+1.36.0");
        }

        @Override
        public Deployed deployed() {
            return new Deployed(Optional.of("1.0.0+1.36.0"), IMAGES);
        }

        @Override
        public Rollout redeployTo(String commit) {
            return operationsFail ? new Rollout(false, NOT_CONVERGED) : new Rollout(true, "converged");
        }
    }

    /** A tier's view of the run with the recipe's keys (a standalone run has the defaults). */
    private record WithKeys(TierContext run, CiKeys keys) implements TierContext {
        @Override
        public Tier tier() {
            return run.tier();
        }

        @Override
        public LiveRun live() {
            return run.live();
        }

        @Override
        public String recipe() {
            return run.recipe();
        }

        @Override
        public String runId() {
            return run.runId();
        }

        @Override
        public Path runDir() {
            return run.runDir();
        }

        @Override
        public Optional<net.commoninternet.ccci.api.RecipeCustomization> customization() {
            return run.customization();
        }

        @Override
        public Set<Tier> tiers() {
            return run.tiers();
        }

        @Override
        public net.commoninternet.ccci.spi.RunRecord record() {
            return run.record();
        }

        @Override
        public net.commoninternet.ccci.spi.RunTimeline timeline() {
            return run.timeline();
        }

        @Override
        public net.commoninternet.ccci.spi.Store store() {
            return run.store();
        }

        @Override
        public String redact(String text) {
            return run.redact(text);
        }

        @Override
        public void attach(Path file, String mediaType) {
            throw new UnsupportedOperationException();
        }
    }

    /** The failures, one a line, for an assertion's description. */
    private static String lines(Map<String, String> failed) {
        return failed.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("\n"));
    }
}
