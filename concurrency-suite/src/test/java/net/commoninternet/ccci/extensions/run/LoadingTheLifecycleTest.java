package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.LoadAndWarmUp;
import org.junit.jupiter.api.Test;

/**
 * Loading ccci's lifecycle starts nothing: a JVM in which the engine finds it (every build with
 * ccci-extensions on its class path, a module's own tests included) opens no engine connection and
 * starts no thread until the engine found runs to execute and called its warm-up. A fresh JVM of
 * its own, since in this one the engine's discovery has loaded the class already.
 */
@RealProcesses
class LoadingTheLifecycleTest {

    @Test
    void theLifecycleStartsItsThreadsAtItsWarmUpNeverWhenItsClassLoads() throws Exception {
        try (Helper jvm = Helper.jvm(LoadAndWarmUp.class)) {
            assertThat(jvm.awaitLine("loaded ")).endsWith("loaded net.commoninternet.ccci.extensions.run.RecipeCiRun, threads []");
            // the same look sees them once they are started: it can tell
            assertThat(jvm.awaitLine("warmed up, threads")).contains("ccci-engine-connect", "ccci-warm-up");
        }
    }
}
