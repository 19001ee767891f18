package net.commoninternet.ccci.spi;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import net.commoninternet.ccci.api.BeforeOperation;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;

/**
 * Runs a recipe customization's {@link BeforeOperation} hooks for one operation, in method-name
 * order. Called by the engine before each tier's operation and by the lifecycle before the
 * install deploy (the one operation that happens before the tiers).
 */
public final class PreOperationHooks {

    private PreOperationHooks() {
    }

    /** The hooks of {@code customization} for {@code op}. */
    public static List<Method> of(RecipeCustomization customization, Tier op) {
        return Arrays.stream(customization.getClass().getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(BeforeOperation.class) && m.getAnnotation(BeforeOperation.class).value() == op)
                .sorted(Comparator.comparing(Method::getName))
                .toList();
    }

    /** Problems with the hooks' shape, each one sentence naming the fix. */
    public static List<String> problems(RecipeCustomization customization) {
        return Arrays.stream(customization.getClass().getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(BeforeOperation.class))
                .filter(m -> m.getParameterCount() != 1 || m.getParameterTypes()[0] != HookContext.class
                        || Modifier.isStatic(m.getModifiers()))
                .map(m -> customization.getClass().getName() + "." + m.getName() + " must be an instance method taking"
                        + " one HookContext parameter, e.g. void " + m.getName() + "(HookContext context).")
                .toList();
    }

    /** Runs the run's customization's hooks for {@code op}; none when the recipe has no customization. */
    public static void run(RunContext run, Tier op) throws Exception {
        RecipeCustomization customization = run.find(RecipeCustomization.class).orElse(null);
        if (customization == null) {
            return;
        }
        List<Method> hooks = of(customization, op);
        if (hooks.isEmpty()) {
            return;
        }
        HookContext context = run.get(HookContext.Source.class).forOperation(op);
        Object instance = customization.getClass().getDeclaredConstructor().newInstance();
        for (Method hook : hooks) {
            CustomizationMethods.invoke(hook, instance, context);
        }
    }
}
