package net.commoninternet.ccci.testing.helpers;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.workspace.RunState;

/**
 * The run-state part of a run in a helper JVM, in {@link RecipeCiRun}'s order: its state files
 * ({@link RunState}) in the preamble, then the app lock ({@link AppDomainLock}, blocking while
 * another run of the domain is live), then its single deploy counted. On an {@code end} line it
 * ends normally, which removes its state files.
 *
 * <p>Usage: {@code StateRun <runs dir> <run id> <lock dir> <domain>}.
 */
public final class StateRun {

    private StateRun() {
    }

    public static void main(String[] args) throws Exception {
        String runId = args[1];
        RunState state = RunState.create(Path.of(args[0]).resolve(runId), runId, ProcessHandle.current().pid());
        say("state deploys-file=" + state.deploys());
        AppDomainLock.acquire(Path.of(args[2]), args[3]);
        say("locked deploys=" + state.countDeploy());
        if (!"end".equals(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine())) {
            throw new IllegalStateException("expected 'end' on stdin");
        }
        // The file, not the run's own count: what a second run must not have reset.
        say("deploys at end=" + Files.readString(state.deploys(), StandardCharsets.UTF_8).strip());
        state.remove();
        say("ended");
    }

    private static void say(String line) {
        System.out.println("state-run " + ProcessHandle.current().pid() + ": " + line);
        System.out.flush();
    }
}
