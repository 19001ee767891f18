package net.commoninternet.ccci.extensions.run;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import com.example.recipeci.EverythingTier;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.spi.TierPlugin;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A tier written against ccci's SPI alone ({@link EverythingTier}, a third party's) runs on the real
 * engine: the real lifecycle, the real swarm, the bundled custom-html recipe, in this JVM through
 * JUnit's own test kit. On the class path it stands in for ccci's UPGRADE tier, as a third party's
 * build would put it: ccci's engine and lifecycle, its own tiers instead of ccci's
 * ({@link ThirdPartyClassPath}).
 */
@RealEngine
class ThirdPartyTierTest {

    private static final String RUN_ID = "third-party-tier";

    @TempDir
    Path sandbox;

    @Test
    void aTierWrittenAgainstTheSpiAloneDoesOnTheRealEngineWhatTheBundledTiersDo() throws Exception {
        EngineExecutionResults results = runOnTheRealEngine();
        Path runDir = sandbox.resolve("runs").resolve(RUN_ID);
        String domain = new ObjectMapper().readTree(runDir.resolve("results.json").toFile()).path("domain").asText();
        try {
            results.testEvents().assertStatistics(stats -> stats.started(6).succeeded(6).failed(0).skipped(0).aborted(0));
            assertThat(results.containerEvents().finished().map(e -> e.getRequiredPayload(TestExecutionResult.class)
                    .getStatus()).distinct().toList()).containsExactly(TestExecutionResult.Status.SUCCESSFUL);
            // ccci's own service-log extension, written against the SPI as well, followed the third party's tier
            assertThat(runDir.resolve("logs/upgrade/app.log")).content().contains(EverythingTier.LOG_LINE);
            try (DockerEngine docker = DockerEngine.connect()) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).isEmpty();
            }
        } finally {
            MavenRun.removeLeftovers(domain);
        }
    }

    @Test
    void theThirdPartysTierSeesNothingOfCcciButItsContracts() {
        JavaClasses tier = new ClassFileImporter().importPackagesOf(EverythingTier.class);

        assertThat(tier.contain(EverythingTier.class)).isTrue();
        classes().should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.assertj..",
                "net.commoninternet.ccci.api..", "net.commoninternet.ccci.spi..", "com.example.recipeci..").check(tier);
    }

    private EngineExecutionResults runOnTheRealEngine() {
        Thread thread = Thread.currentThread();
        ClassLoader original = thread.getContextClassLoader();
        thread.setContextClassLoader(new ThirdPartyClassPath(original));
        try {
            // a pull request of its own: no other run on the host shares its app
            return EngineTestKit.engine("ccci")
                    .selectors(selectUniqueId("[engine:ccci]/[recipe:custom-html]/[tier:upgrade]"))
                    .configurationParameter("ccci.recipes", MavenRun.ROOT.resolve("recipe-suites/recipes").toString())
                    .configurationParameter("ccci.run-id", RUN_ID)
                    .configurationParameter("ccci.pr", "3040")
                    .configurationParameter("ccci.runs-dir", sandbox.resolve("runs").toString())
                    .configurationParameter("ccci.abra-dir", sandbox.resolve("abra").toString())
                    .execute();
        } finally {
            thread.setContextClassLoader(original);
        }
    }

    /**
     * This module's class path, with the tiers a third party's build would have: its own
     * ({@code third-party/META-INF/services/...TierPlugin}) where ccci-extensions registers ccci's.
     * Everything else, the engine, the lifecycle and the extensions included, comes as it is.
     */
    static final class ThirdPartyClassPath extends ClassLoader {
        private static final String TIERS = "META-INF/services/" + TierPlugin.class.getName();

        ThirdPartyClassPath(ClassLoader parent) {
            super(parent);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            if (name.equals(TIERS)) {
                return Collections.enumeration(List.of(getParent().getResource("third-party/" + TIERS)));
            }
            return super.getResources(name);
        }
    }
}
