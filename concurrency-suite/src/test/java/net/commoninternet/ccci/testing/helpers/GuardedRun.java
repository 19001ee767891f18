package net.commoninternet.ccci.testing.helpers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.guards.ParentDeathSignal;
import net.commoninternet.ccci.extensions.guards.RunStopped;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;

/**
 * A guarded run in a helper JVM, shaped like {@link RecipeCiRun}: it installs the real
 * {@link LifetimeGuards} on its main thread, takes a real {@link AppDomainLock}, says
 * {@code ready}, and works until something stops it; its teardown runs in {@code finally}.
 *
 * <p>Usage: {@code GuardedRun <lock dir> <domain> <deadline seconds> [options]}. {@code --gate}
 * waits for a {@code go} line before installing the guards (to orphan it first);
 * {@code --end-on-line} makes the run's work end normally on an {@code end-run} line instead of
 * lasting until stopped; {@code --hold-teardown} holds the teardown until a {@code finish} line, so
 * a test can act while it is in progress. Exit status: the guards' (143, 142), or 2 when the guards refused to run.
 */
public final class GuardedRun {

    public static final int REFUSED = 2;

    private GuardedRun() {
    }

    public static void main(String[] args) throws Exception {
        Path lockDir = Path.of(args[0]);
        String domain = args[1];
        Duration deadline = Duration.ofSeconds(Long.parseLong(args[2]));
        List<String> options = List.of(args).subList(3, args.length);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long pid = ProcessHandle.current().pid();
        say("started pid=" + pid + " parent=" + ParentDeathSignal.PARENT_AT_START);
        if (options.contains("--gate")) {
            expect(in, "go");
        }
        LifetimeGuards guards;
        try {
            guards = LifetimeGuards.install(deadline);
        } catch (IllegalStateException refused) {
            say("refused: " + refused.getMessage());
            System.exit(REFUSED);
            return;
        }
        try (guards) {
            try {
                AppDomainLock.acquire(lockDir, domain);
                say("ready pid=" + pid + " parent=" + ParentDeathSignal.LIBC.getppid());
                if (options.contains("--end-on-line")) {
                    expect(in, "end-run");
                } else {
                    new CountDownLatch(1).await();
                }
            } finally {
                guards.beginTeardown();
                say("teardown begin");
                if (options.contains("--hold-teardown")) {
                    expect(in, "finish");
                }
                say("teardown end");
            }
        } catch (InterruptedException | RunStopped stopped) {
            say("run ended: " + stopped);
        }
    }

    static void say(String line) {
        System.out.println("guarded: " + line);
        System.out.flush();
    }

    private static void expect(BufferedReader in, String word) throws IOException {
        String line = in.readLine();
        if (!word.equals(line)) {
            throw new IllegalStateException("expected '" + word + "' on stdin, got " + line);
        }
    }
}
