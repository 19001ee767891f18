package net.commoninternet.ccci.extensions.deployment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.recipe.App;
import org.apiguardian.api.API;

/**
 * The apps of the recipe's dependencies ({@code DEPS}) as the run left them before creating its
 * own app, in the order deployed: cold ones the run deployed (and will remove), warm ones it uses
 * untouched.
 */
@API(status = API.Status.INTERNAL)
public record Dependencies(List<Dependency> all) {

    /**
     * One dependency: cold (deployed by this run; {@code app} set once created) or warm (a
     * long-lived app the run never touches; no {@code app}).
     */
    public record Dependency(String recipe, String domain, App app, boolean warm) {
    }

    public Dependencies {
        all = List.copyOf(all);
    }

    public static Dependencies none() {
        return new Dependencies(List.of());
    }

    /** How many dependencies this run deployed cold: each is one deploy in the deploy count. */
    public int coldCount() {
        return (int) all.stream().filter(d -> !d.warm()).count();
    }

    /** Recipe to domain, in the order deployed. */
    public Map<String, String> domains() {
        Map<String, String> domains = new LinkedHashMap<>();
        all.forEach(d -> domains.put(d.recipe(), d.domain()));
        return domains;
    }

    /** The apps this run created for its cold dependencies. */
    public List<App> coldApps() {
        return all.stream().filter(d -> !d.warm() && d.app() != null).map(Dependency::app).toList();
    }

    /** Every secret value of the cold dependencies, for masking and the leak scan. */
    public List<String> secretValues() {
        return coldApps().stream().flatMap(a -> a.secretValues().values().stream()).toList();
    }
}
