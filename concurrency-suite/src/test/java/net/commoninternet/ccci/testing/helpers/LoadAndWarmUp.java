package net.commoninternet.ccci.testing.helpers;

import java.util.List;
import java.util.ServiceLoader;
import net.commoninternet.ccci.lifecycle.RunLifecycle;

/** As the engine's discovery loads it, then its warm-up; prints ccci's threads after each. */
public final class LoadAndWarmUp {
    public static void main(String[] args) {
        RunLifecycle lifecycle = ServiceLoader.load(RunLifecycle.class).findFirst().orElseThrow();
        System.out.println("loaded " + lifecycle.getClass().getName() + ", threads " + ccciThreads());
        lifecycle.warmUp();
        System.out.println("warmed up, threads " + ccciThreads());
    }

    private static List<String> ccciThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(n -> n.startsWith("ccci-"))
                .sorted().toList();
    }
}
