package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.extensions.guards.GuardedCommand;
import net.commoninternet.ccci.extensions.results.Catalogue;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.lifecycle.SpareSlots;
import net.commoninternet.ccci.spi.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the runs of one command share: the masked console (and {@code -Dccci.log-file}), the
 * command's lifetime guards ({@link GuardedCommand}), the progress count and, for a command of
 * several recipes, the catalogue written at its end. Opened before the first run, on the thread
 * that runs the plan; closed after the last.
 */
final class RecipeCommand {

    private static final Logger LOG = LoggerFactory.getLogger(RecipeCommand.class);

    private final RunPlan plan;
    private final RedactedConsole console;
    private final GuardedCommand guards;
    private final RunProgress progress;
    private final List<Catalogue.Entry> entries = new ArrayList<>();

    private RecipeCommand(RunPlan plan, RedactedConsole console, GuardedCommand guards) {
        this.plan = plan;
        this.console = console;
        this.guards = guards;
        this.progress = new RunProgress(plan.runs().size());
    }

    /**
     * The console filter comes first: it starts nothing and takes no lock, and the log file then
     * has every line of the command, the guards' own included. Then the command's SIGTERM funnel,
     * shutdown hook and hard deadline.
     */
    static RecipeCommand begin(RunPlan plan) throws IOException {
        RedactedConsole console = RedactedConsole.install();
        GuardedCommand guards;
        try {
            RunSettings first = plan.runs().get(0);
            for (Path logFile : first.paths().logFile().stream().toList()) {
                console.teeTo(logFile);
            }
            guards = GuardedCommand.open(first.options().deadline());
        } catch (IOException | RuntimeException e) {
            console.close();
            throw e;
        }
        if (plan.several()) {
            LOG.info("== ccci command {}: {} recipes ({}), run ids {}-<recipe> ==", plan.runId(), plan.runs().size(),
                    String.join(", ", plan.runs().stream().map(RunSettings::recipe).toList()), plan.runId());
        }
        return new RecipeCommand(plan, console, guards);
    }

    RedactedConsole console() {
        return console;
    }

    /** The command's run slots no run holds right now. */
    SpareSlots spare() {
        return plan.spare();
    }

    RunProgress progress() {
        return progress;
    }

    void started(LifecycleContext run) {
        progress.started();
    }

    /** A run ended (or never started): red if it threw or any of its checks failed. */
    void finished(LifecycleContext run, Throwable failure) {
        boolean red = failure != null || run.record().rows().stream().anyMatch(r -> r.status() == RunRecord.Status.FAILED);
        progress.finished(run.recipe(), red);
        synchronized (entries) {
            entries.add(Catalogue.Entry.of(run.settings(), red, failure == null ? null : console.redact(String.valueOf(
                    failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage()))));
        }
    }

    /**
     * The catalogue of a command of several recipes (attached to the plan's root node), then the
     * guards close: after a SIGTERM or the deadline that does not return (exit 143 or 142).
     */
    void end() throws IOException {
        try {
            if (plan.several()) {
                List<Catalogue.Entry> all;
                synchronized (entries) {
                    all = new ArrayList<>(entries);
                }
                try {
                    Catalogue.Written written = Catalogue.write(plan, all, console.secretValues());
                    LOG.info("== catalogue of command {}: {} ({} red of {}) ==", plan.runId(), written.html(),
                            progress.red().size(), plan.runs().size());
                    plan.attach(written.html(), "text/html");
                    plan.attach(written.json(), "application/json");
                } catch (Exception e) {
                    LOG.warn("could not write or attach the command's catalogue (the verdicts stand): {}", e.toString());
                }
            }
        } finally {
            try {
                guards.close();
            } finally {
                console.close();
            }
        }
    }
}
