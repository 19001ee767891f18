package net.commoninternet.ccci.engine.extension;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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

    /** Problems with the annotated methods' shape and tags, each one sentence naming the fix. */
    public static List<String> problems(RecipeCustomization customization) {
        List<String> problems = new ArrayList<>();
        for (Method m : customization.getClass().getDeclaredMethods()) {
            if (!m.isAnnotationPresent(Functional.class) && !m.isAnnotationPresent(AfterOperation.class)) {
                continue;
            }
            String name = customization.getClass().getName() + "." + m.getName();
            if (m.getParameterCount() != 1 || m.getParameterTypes()[0] != LiveApp.class || Modifier.isStatic(m.getModifiers())) {
                problems.add(name + " must be an instance method taking one LiveApp parameter, e.g. void " + m.getName()
                        + "(LiveApp app).");
            }
            CheckTags.problem(name, tags(m)).ifPresent(problems::add);
        }
        return problems;
    }

    /** The tags the method's annotation gives it. */
    private static Set<String> tags(Method method) {
        Set<String> tags = new TreeSet<>();
        Optional.ofNullable(method.getAnnotation(Functional.class)).ifPresent(f -> tags.addAll(List.of(f.tags())));
        Optional.ofNullable(method.getAnnotation(AfterOperation.class)).ifPresent(a -> tags.addAll(List.of(a.tags())));
        return tags;
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

        @Override
        public Set<String> tags() {
            return RecipeChecks.tags(method);
        }
    }
}
