package net.commoninternet.ccci.extensions.results;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.commoninternet.ccci.api.AfterOperation;
import net.commoninternet.ccci.api.BeforeOperation;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Functional;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import org.apiguardian.api.API;

/**
 * The customization a run used, as printed at its start and recorded in results.json: the
 * class, its keys (secret-looking values masked), hooks, assertions, functional tests, overlays
 * and what became of the recipe repository's own CI files.
 */
@API(status = API.Status.INTERNAL)
public final class CustomizationManifest {

    private CustomizationManifest() {
    }

    public static Map<String, Object> of(CiKeys keys, Optional<RecipeCustomization> customization, Map<String, String> recipeFiles,
            boolean approved, Collection<String> secrets) {
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("class", customization.map(c -> c.getClass().getName()).orElse(null));
        manifest.put("keys", SecretMasking.mask(null, new TreeMap<>(keys.asMap()), secrets));
        manifest.put("not_acted_on", keys.notActedOn());
        List<Method> methods = customization.map(c -> Arrays.stream(c.getClass().getDeclaredMethods())
                .sorted(Comparator.comparing(Method::getName)).toList()).orElse(List.of());
        manifest.put("hooks", methods.stream().filter(m -> m.isAnnotationPresent(BeforeOperation.class))
                .map(m -> "pre_" + m.getAnnotation(BeforeOperation.class).value().id() + ": " + m.getName()).toList());
        manifest.put("assertions", methods.stream().filter(m -> m.isAnnotationPresent(AfterOperation.class))
                .map(m -> m.getAnnotation(AfterOperation.class).value().id() + ": " + m.getName()).toList());
        manifest.put("functional", methods.stream().filter(m -> m.isAnnotationPresent(Functional.class))
                .map(Method::getName).toList());
        manifest.put("recipe_code_approved", approved);
        manifest.put("files", new TreeMap<>(recipeFiles));
        return manifest;
    }
}
