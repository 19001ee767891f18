package net.commoninternet.ccci.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a recipe's hook ({@link BeforeOperation}) is given: the app's domain and base URL, the
 * recipe's CI keys, its dependencies and the operation about to run.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface HookContext {

    /** The app's domain, e.g. {@code cust-4734d8.ci.commoninternet.net}. */
    String domain();

    /** {@code https://<domain>}: the URL the app has behind the production proxy. */
    default String baseUrl() {
        return "https://" + domain();
    }

    /** The recipe's CI keys, defaults filled in. */
    CiKeys keys();

    /** The recipe's dependencies ({@code DEPS}); empty when it has none. */
    List<String> deps();

    /** Each dependency's app domain, by recipe: deployed, converged and reachable before INSTALL's hooks run. */
    Map<String, String> depDomains();

    /** The operation about to run. */
    Tier op();

    /** The live app; empty before INSTALL's deploy, when there is no app to talk to yet. */
    Optional<LiveApp> app();

    /**
     * Sets {@code KEY=value} in the app's env file, which the next deploy reads: allowed before
     * INSTALL and UPGRADE (the operations that deploy), an {@link IllegalStateException} otherwise.
     */
    void setEnv(String key, String value) throws Exception;

    /** Where the lifecycle makes hook contexts, one per operation. */
    @FunctionalInterface
    interface Source {
        HookContext forOperation(Tier op);
    }
}
