package com.example.recipeci;

import net.commoninternet.ccci.spi.LintResult;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Backups;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.ServiceLogs;
import net.commoninternet.ccci.spi.Store;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import net.commoninternet.ccci.spi.Versions;

/**
 * A tier of somebody else's, written against ccci's contracts alone ({@code api} and {@code spi}:
 * nothing of ccci-extensions): in the UPGRADE slot, on one live app, it does what ccci's own
 * INSTALL, UPGRADE, BACKUP, RESTORE and LINT tiers and its service-log extension do. Its operation
 * does everything and keeps what it saw in the run's store under a key of its own; each check
 * judges one part of it.
 */
public final class EverythingTier implements TierPlugin {

    /** The line the tier writes to the app's output, which its service log must then hold. */
    public static final String LOG_LINE = "a third-party tier was here";
    private static final String MARKER = ".third-party-marker";
    private static final Duration LOG_WAIT = Duration.ofSeconds(60);

    /** What the operation saw, for the checks. */
    record Seen(Probes.Answer served, LiveApp.Response exec, Restore restore, Upgrade upgrade, Logged logged,
                Map<String, LintResult> lint) {
    }

    /** The marker seeded before the backup, and what it read after the restore. */
    record Restore(String seeded, String snapshot, String restored) {
    }

    /** The deployed versions around the redeploy to the head, how it rolled out, and how it converged. */
    record Upgrade(Versions.Upgrade plan, Versions.Deployed before, Versions.Deployed after, Versions.Rollout rollout,
                   Convergence converged) {
    }

    /** The app's services as the live run lists them, and the app service's log once it held the tier's line. */
    record Logged(List<ServiceLogs.Service> services, String log) {
    }

    static final Store.Key<Seen> SEEN = Store.Key.of("what the third-party tier saw", Seen.class);

    @Override
    public Tier tier() {
        return Tier.UPGRADE;
    }

    private static Seen seen(TierContext tier) {
        return tier.store().find(SEEN).orElseThrow(() -> new AssertionError("the operation did not get to the end"));
    }

    @Override
    public void operate(TierContext tier) throws Exception {
        LiveRun live = tier.live();
        CiKeys keys = tier.keys();
        Probes.Answer served = live.probes().awaitHttp(keys.healthPath(), keys.healthOk(),
                Duration.ofSeconds(keys.httpTimeoutSeconds())).orElseThrow(() -> new AssertionError("the app is not routed"));
        LiveApp.Response exec = live.app().exec("app", "cat /etc/hostname");
        Restore restore = backupAndRestore(tier);
        Versions versions = live.versions();
        Versions.Upgrade plan = versions.upgrade();
        Versions.Deployed before = versions.deployed();
        Versions.Rollout rollout = versions.redeployTo(plan.head());
        Versions.Deployed after = versions.deployed();
        Upgrade upgrade = new Upgrade(plan, before, after, rollout, live.awaitConverged());
        live.app().exec("app", "echo '" + LOG_LINE + "' > /proc/1/fd/1");
        tier.store().put(SEEN, new Seen(served, exec, restore, upgrade, logged(live), live.lint()));
    }

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("serves-http", tier -> assertThat(seen(tier).served().status()).as("GET %s: %s",
                        seen(tier).served().url(), seen(tier).served().detail()).isIn(tier.keys().healthOk())),
                Check.of("execs-in-the-app", tier -> assertThat(seen(tier).exec()).as("hostname in app")
                        .satisfies(r -> assertThat(r.status()).isZero(), r -> assertThat(r.body()).isNotBlank())),
                Check.of("restores-its-backup", tier -> {
                    Restore restore = seen(tier).restore();
                    assertThat(restore.snapshot()).matches("[0-9a-f]{8,64}");
                    assertThat(restore.restored()).isEqualTo(restore.seeded());
                }),
                Check.of("redeploys-to-the-head", tier -> {
                    Upgrade upgrade = seen(tier).upgrade();
                    assertThat(upgrade.rollout().rolledOut()).as(upgrade.rollout().description()).isTrue();
                    assertThat(upgrade.converged().converged()).as(upgrade.converged().description()).isTrue();
                    assertThat(upgrade.after().version()).isPresent().isNotEqualTo(upgrade.before().version())
                            .isEqualTo(upgrade.plan().headVersion());
                    assertThat(tier.live().inspect().converged()).isTrue();
                }),
                Check.of("reads-its-service-log", tier -> {
                    Logged logged = seen(tier).logged();
                    assertThat(logged.services()).extracting(ServiceLogs.Service::name).contains("app");
                    assertThat(logged.log()).contains(LOG_LINE);
                }),
                Check.of("lints-it", tier -> assertThat(seen(tier).lint()).containsKey("ccci-compose-parses")));
    }

    /** A marker in the first backed-up place, a backup, the marker changed, the restore, the marker read again. */
    private static Restore backupAndRestore(TierContext tier) throws Exception {
        Backups backups = tier.live().backups();
        assertThat(backups.labelled()).as("the app is backed up").isTrue();
        Backups.Place place = backups.places().get(0);
        String marker = "'" + place.path() + "/" + MARKER + "'";
        String seeded = "seeded-by-" + tier.runId();
        LiveApp app = tier.live().app();
        assertThat(app.exec(place.service(), "printf %s " + seeded + " > " + marker).status()).isZero();
        String snapshot = backups.backup();
        assertThat(app.exec(place.service(), "printf %s changed > " + marker).status()).isZero();
        backups.restore(snapshot);
        return new Restore(seeded, snapshot, app.exec(place.service(), "cat " + marker).body());
    }

    /** The app service's log, read again until it holds the tier's line (a condition awaited, bounded). */
    private static Logged logged(LiveRun live) throws Exception {
        ServiceLogs logs = live.serviceLogs();
        List<ServiceLogs.Service> services = logs.services();
        ServiceLogs.Service app = services.stream().filter(s -> s.name().equals("app")).findFirst().orElseThrow();
        long deadline = System.nanoTime() + LOG_WAIT.toNanos();
        String log = logs.read(app, Instant.EPOCH, Instant.now());
        while (!log.contains(LOG_LINE) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(200);
            log = logs.read(app, Instant.EPOCH, Instant.now());
        }
        return new Logged(services, log);
    }
}
