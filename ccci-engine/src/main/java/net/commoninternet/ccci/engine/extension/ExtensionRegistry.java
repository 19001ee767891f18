package net.commoninternet.ccci.engine.extension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.TierContext;
import org.apiguardian.api.API;
import org.junit.platform.engine.support.hierarchical.OpenTest4JAwareThrowableCollector;
import org.junit.platform.engine.support.hierarchical.ThrowableCollector;

/**
 * Every {@link RunExtension} on the class path, in their declared order, and the one place that
 * calls them. Each extension point calls all of its extensions through a collector (JUnit's, as
 * Jupiter's engine does): an extension that throws never stops the next one, the first failure is
 * the primary and later ones are added to it as suppressed (an abort gives way to a real failure).
 * Teardown runs in reverse order.
 */
@API(status = API.Status.INTERNAL)
public final class ExtensionRegistry {

    private final List<RunExtension> extensions;

    private ExtensionRegistry(List<RunExtension> extensions) {
        this.extensions = List.copyOf(extensions);
    }

    static ExtensionRegistry load(ClassLoader loader) {
        List<RunExtension> found = new ArrayList<>();
        ServiceLoader.load(RunExtension.class, loader).forEach(found::add);
        found.sort(Comparator.comparingInt(RunExtension::order).thenComparing(e -> e.getClass().getName()));
        return new ExtensionRegistry(found);
    }

    /** The BeforeRun extensions; throws the first failure, every extension called. */
    public void beforeRun(RunContext run) {
        each(RunExtension.BeforeRun.class, false, e -> e.beforeRun(run)).assertEmpty();
    }

    /** The BeforeDeploy extensions; throws the first failure, every extension called. */
    public void beforeDeploy(RunContext run) {
        each(RunExtension.BeforeDeploy.class, false, e -> e.beforeDeploy(run)).assertEmpty();
    }

    /** The BeforeChecks extensions of {@code tier}; throws the first failure, every extension called. */
    public void beforeChecks(TierContext tier) {
        each(RunExtension.BeforeChecks.class, false, e -> e.beforeChecks(tier)).assertEmpty();
    }

    /** The AfterTier extensions of {@code tier}: what they threw, collected (empty if nothing). */
    public ThrowableCollector afterTier(TierContext tier, Throwable failure) {
        return each(RunExtension.AfterTier.class, false, e -> e.afterTier(tier, failure));
    }

    /** The Teardown extensions, last first: what they threw, collected (empty if nothing). */
    public ThrowableCollector teardown(RunContext run) {
        return each(RunExtension.Teardown.class, true, e -> e.teardown(run));
    }

    private <T extends RunExtension> ThrowableCollector each(Class<T> point, boolean reversed, Callback<T> callback) {
        List<T> called = new ArrayList<>(extensions.stream().filter(point::isInstance).map(point::cast).toList());
        if (reversed) {
            Collections.reverse(called);
        }
        ThrowableCollector collector = new OpenTest4JAwareThrowableCollector();
        for (T extension : called) {
            collector.execute(() -> callback.call(extension));
        }
        return collector;
    }

    @FunctionalInterface
    private interface Callback<T> {
        void call(T extension) throws Exception;
    }
}
