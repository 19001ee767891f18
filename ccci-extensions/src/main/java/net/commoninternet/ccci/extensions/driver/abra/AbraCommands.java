package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link AbraCli}'s command lines as children of the run, so each gets the run's
 * {@code ABRA_DIR} ({@link ChildProcesses}), and hands what they print to its parsers. It adds
 * no abra knowledge of its own: a command line or format lives in AbraCli only.
 */
final class AbraCommands {

    private static final Logger LOG = LoggerFactory.getLogger(AbraCommands.class);

    private final AbraCli cli;
    private final ChildProcesses processes;
    private final Duration timeout;

    /** @param timeout the bound on any one abra command (a hung abra never hangs the run) */
    AbraCommands(AbraCli cli, ChildProcesses processes, Duration timeout) {
        this.cli = cli;
        this.processes = processes;
        this.timeout = timeout;
    }

    void newApp(String recipe, String server, String domain) throws IOException, InterruptedException {
        run(cli.appNew(recipe, server, domain));
    }

    /** The generated values are in abra's output, which is therefore never logged or quoted. */
    void generateSecrets(String domain) throws IOException, InterruptedException {
        run(cli.secretGenerate(domain));
    }

    void deploy(String domain) throws IOException, InterruptedException {
        run(cli.deploy(domain));
    }

    void undeploy(String domain) throws IOException, InterruptedException {
        run(cli.undeploy(domain));
    }

    void remove(String domain) throws IOException, InterruptedException {
        run(cli.remove(domain));
    }

    AbraCli.Snapshot backup(String domain) throws IOException, InterruptedException {
        AbraCli.Invocation invocation = cli.backupCreate(domain);
        return AbraCli.snapshot(invocation, run(invocation));
    }

    void restore(String domain) throws IOException, InterruptedException {
        run(cli.restore(domain));
    }

    void fetchRecipe(String recipe) throws IOException, InterruptedException {
        run(cli.recipeFetch(recipe));
    }

    /** The lint table; an {@link AbraException} when lint could not run (see AbraCli.recipeInvalid). */
    AbraCli.Lint lint(String recipe) throws IOException, InterruptedException {
        AbraCli.Invocation invocation = cli.recipeLint(recipe);
        return AbraCli.lint(invocation, run(invocation));
    }

    List<AbraCli.AppRow> apps() throws IOException, InterruptedException {
        AbraCli.Invocation invocation = cli.appList();
        return AbraCli.appList(invocation, run(invocation));
    }

    private String run(AbraCli.Invocation invocation) throws IOException, InterruptedException {
        LOG.info("{}: {}", invocation.name(), String.join(" ", invocation.argv()));
        ChildProcesses.Result result = processes.run(invocation.argv(), null, invocation.environment(), timeout);
        AbraCli.checkExit(invocation, result.exitCode(), result.output());
        return result.output();
    }
}
