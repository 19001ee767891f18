package net.commoninternet.ccci.engine.extension;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import net.commoninternet.ccci.api.AfterOperation;
import net.commoninternet.ccci.api.Functional;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.TierContext;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;

/**
 * A customization's annotated methods as checks: {@link AfterOperation} ones join their tier's
 * generic checks, {@link Functional} ones make up the CUSTOM tier. Each check has its method as
 * source, so an IDE navigates to it and reruns it alone.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeChecks {

    private RecipeChecks() {
    }

    public static List<Check> of(RecipeCustomization customization, Tier tier) {
        Predicate<Method> ours = tier == Tier.CUSTOM
                ? m -> m.isAnnotationPresent(Functional.class)
                : m -> m.isAnnotationPresent(AfterOperation.class) && m.getAnnotation(AfterOperation.class).value() == tier;
        return Arrays.stream(customization.getClass().getDeclaredMethods())
                .filter(ours)
                .sorted(Comparator.comparing(Method::getName))
                .map(m -> (Check) new MethodCheck(customization.getClass(), m))
                .toList();
    }

    /** Problems with the annotated methods' shape, each one sentence naming the fix. */
    public static List<String> problems(RecipeCustomization customization) {
        return Arrays.stream(customization.getClass().getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Functional.class) || m.isAnnotationPresent(AfterOperation.class))
                .filter(m -> m.getParameterCount() != 1 || m.getParameterTypes()[0] != LiveApp.class
                        || Modifier.isStatic(m.getModifiers()))
                .map(m -> customization.getClass().getName() + "." + m.getName() + " must be an instance method taking"
                        + " one LiveApp parameter, e.g. void " + m.getName() + "(LiveApp app).")
                .toList();
    }

    private record MethodCheck(Class<? extends RecipeCustomization> type, Method method) implements Check {

        @Override
        public String name() {
            return method.getName();
        }

        @Override
        public void verify(TierContext tier) throws Exception {
            CustomizationMethods.invoke(method, type.getDeclaredConstructor().newInstance(), tier.live().app());
        }

        @Override
        public Optional<TestSource> source() {
            return Optional.of(MethodSource.from(method));
        }
    }
}
