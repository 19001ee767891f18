package net.commoninternet.ccci.engine.extension;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.BeforeOperation;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * Runs a recipe customization's {@link BeforeOperation} hooks for one operation, in method-name
 * order: for INSTALL when the lifecycle says (right before its single deploy), for the other
 * tiers right before their operation.
 */
@API(status = API.Status.INTERNAL)
public final class PreOperationHooks {

    private PreOperationHooks() {
    }

    /** The hooks of {@code customization} for {@code op}. */
    static List<Method> of(RecipeCustomization customization, Tier op) {
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

    /** Runs the customization's hooks for {@code context.op()}; none when the recipe has no customization. */
    public static void run(Optional<RecipeCustomization> customization, HookContext context) throws Exception {
        if (customization.isEmpty()) {
            return;
        }
        List<Method> hooks = of(customization.get(), context.op());
        if (hooks.isEmpty()) {
            return;
        }
        Object instance = customization.get().getClass().getDeclaredConstructor().newInstance();
        for (Method hook : hooks) {
            CustomizationMethods.invoke(hook, instance, context);
        }
    }
}
