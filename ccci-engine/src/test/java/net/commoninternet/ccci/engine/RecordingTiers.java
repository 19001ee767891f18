package net.commoninternet.ccci.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.Driver;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;

/** Test doubles of tier plugins and an extension, recording into {@link RecordingLifecycle#EVENTS}. */
public final class RecordingTiers {

    private RecordingTiers() {
    }

    /** INSTALL with one passing and one failing check (a planted failure, final at once: never tried again). */
    public static final class Install implements TierPlugin {
        @Override
        public Tier tier() {
            return Tier.INSTALL;
        }

        @Override
        public List<Check> checks() {
            return List.of(
                    Check.of("passes", run -> {
                        RecordingLifecycle.EVENTS.add("check passes");
                        if (run.recipe().startsWith("host-once-")) { // a check tried again on failure that the host fails
                            throw new HostFault(HostFault.Cause.ENGINE, "it answered HTTP 500: refused", null);
                        }
                        if (run.recipe().startsWith("stopped-")) { // as a SIGTERM mid-check: the guards' stop
                            RecordingLifecycle.STOPS.put(run.recipe(), "the run was stopped by SIGTERM");
                            if (run.recipe().endsWith("-interrupted")) { // and its interrupt ending the check
                                throw new InterruptedException("sleep interrupted");
                            }
                        }
                    }),
                    Check.once("fails", run -> {
                        RecordingLifecycle.EVENTS.add("check fails");
                        if (run.recipe().startsWith("host-")) { // the engine refused what the check asked of it
                            throw new IllegalStateException("the probe could not start", new HostFault(HostFault.Cause.ENGINE,
                                    "it answered HTTP 500: refused", null));
                        }
                        throw new AssertionError("planted failure");
                    }));
        }

        @Override
        public void operate(TierContext run) {
            RecordingLifecycle.EVENTS.add("operate install");
            RecordingLifecycle.THREADS.add(run.recipe() + " install on " + Thread.currentThread().getName());
        }
    }

    /**
     * BACKUP with one passing check, so that its operation (and the hooks before it) runs, and a
     * passing last check, which runs after the recipe's own assertions of the tier.
     */
    public static final class Backup implements TierPlugin {
        @Override
        public Tier tier() {
            return Tier.BACKUP;
        }

        @Override
        public List<Check> checks() {
            return List.of(Check.of("verified", run -> RecordingLifecycle.EVENTS.add("check verified")));
        }

        @Override
        public List<Check> lastChecks() {
            return List.of(Check.of("settled", run -> RecordingLifecycle.EVENTS.add("check settled")));
        }

        @Override
        public void operate(TierContext run) {
            RecordingLifecycle.EVENTS.add("operate backup");
        }
    }

    /** LINT whose operation throws, so its checks never run; under the abra driver its check is another. */
    public static final class Lint implements TierPlugin {
        @Override
        public Tier tier() {
            return Tier.LINT;
        }

        @Override
        public List<Check> checks() {
            return List.of(Check.of("clean", run -> RecordingLifecycle.EVENTS.add("check clean")));
        }

        @Override
        public List<Check> checks(Driver driver) {
            return driver.id().equals("abra")
                    ? List.of(Check.of("abra-clean", run -> RecordingLifecycle.EVENTS.add("check abra-clean")))
                    : checks();
        }

        /** As ccci's LINT: it reads the recipe, so a run of it alone deploys nothing. */
        @Override
        public boolean needsLiveApp() {
            return false;
        }

        @Override
        public void operate(TierContext run) {
            RecordingLifecycle.EVENTS.add("operate lint");
            throw new IllegalStateException("lint operation broke");
        }
    }

    /** CUSTOM with no generic checks: the recipe's functional tests are its checks. */
    public static final class Custom implements TierPlugin {
        @Override
        public Tier tier() {
            return Tier.CUSTOM;
        }

        @Override
        public List<Check> checks() {
            return List.of();
        }

        @Override
        public void operate(TierContext run) {
            RecordingLifecycle.EVENTS.add("operate custom");
        }
    }

    /** Records every AfterTier callback with the failure it was given. */
    public static final class AfterTierRecorder implements RunExtension.AfterTier {
        @Override
        public void afterTier(TierContext tier, Throwable failure) {
            if (tier.recipe().startsWith("stopped-after-")) { // a stop that comes after the tier's own failure
                RecordingLifecycle.STOPS.put(tier.recipe(), "the run was stopped by SIGTERM");
            }
            RecordingLifecycle.EVENTS.add("after " + tier.tier().id() + (failure == null ? " ok" : " failed: " + failure.getMessage()));
        }
    }

    /** Attaches the file a test put in {@link #FILES} for a tier, after that tier; nothing otherwise. */
    public static final class Attacher implements RunExtension.AfterTier {
        public static final Map<Tier, Path> FILES = new ConcurrentHashMap<>();

        @Override
        public void afterTier(TierContext tier, Throwable failure) throws Exception {
            Path file = FILES.get(tier.tier());
            if (file != null) {
                tier.attach(file, "text/plain");
            }
        }
    }
}
