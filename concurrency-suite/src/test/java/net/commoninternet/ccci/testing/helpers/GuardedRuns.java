package net.commoninternet.ccci.testing.helpers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import net.commoninternet.ccci.extensions.guards.GuardedCommand;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.guards.RunStopped;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;

/**
 * A command of several guarded runs in a helper JVM, shaped like {@code RecipeCiRun} under a plan:
 * the main thread opens the real {@link GuardedCommand} (as {@code beginPlan} does), then each run
 * installs its real {@link LifetimeGuards} on a thread of its own, takes a real
 * {@link AppDomainLock} on its own domain, says {@code ready <i>}, and works until something stops
 * it; its teardown runs in {@code finally} and is held until a {@code finish} line. A {@code late}
 * line starts one more run (after a stop it must refuse). When every run has ended, the main thread
 * closes the command, which ends the process with the guards' status (143, 142) after a stop.
 *
 * <p>Usage: {@code GuardedRuns <lock dir> <domain prefix> <deadline seconds> <runs>}.
 */
public final class GuardedRuns {

    private GuardedRuns() {
    }

    public static void main(String[] args) throws Exception {
        Path lockDir = Path.of(args[0]);
        String prefix = args[1];
        Duration deadline = Duration.ofSeconds(Long.parseLong(args[2]));
        int runs = Integer.parseInt(args[3]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        CountDownLatch finish = new CountDownLatch(1);
        say("started pid=" + ProcessHandle.current().pid());
        GuardedCommand command = GuardedCommand.open(deadline);
        List<Thread> threads = new ArrayList<>();
        for (int i = 1; i <= runs; i++) {
            threads.add(start(lockDir, prefix, deadline, i, finish));
        }
        Thread reader = new Thread(() -> {
            try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.equals("finish")) {
                        finish.countDown();
                    } else if (line.equals("late")) {
                        Thread late = start(lockDir, prefix, deadline, runs + 1, finish);
                        late.join();
                    }
                }
            } catch (IOException | InterruptedException e) {
                say("stdin: " + e);
            }
        }, "stdin");
        reader.setDaemon(true);
        reader.start();
        for (Thread thread : threads) {
            thread.join();
        }
        say("all runs ended");
        command.close();
    }

    private static Thread start(Path lockDir, String prefix, Duration deadline, int i, CountDownLatch finish) {
        Thread thread = new Thread(() -> run(lockDir, prefix + i + ".ci.commoninternet.net", deadline, i, finish), "run-" + i);
        thread.start();
        return thread;
    }

    private static void run(Path lockDir, String domain, Duration deadline, int i, CountDownLatch finish) {
        LifetimeGuards guards;
        try {
            guards = LifetimeGuards.install(deadline, "run-" + i);
        } catch (RuntimeException refused) {
            say("refused " + i + ": " + refused.getMessage());
            return;
        }
        try (guards) {
            try {
                AppDomainLock.acquire(lockDir, domain);
                say("ready " + i);
                new CountDownLatch(1).await();
            } finally {
                guards.beginTeardown();
                say("teardown begin " + i);
                finish.await();
                say("teardown end " + i);
            }
        } catch (InterruptedException | RunStopped stopped) {
            say("run ended " + i + ": " + RunStopped.first(stopped));
        } catch (Exception e) {
            say("run failed " + i + ": " + e);
        }
    }

    static synchronized void say(String line) {
        System.out.println("guarded: " + line);
        System.out.flush();
    }
}
