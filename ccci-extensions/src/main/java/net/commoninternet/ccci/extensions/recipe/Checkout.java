package net.commoninternet.ccci.extensions.recipe;

import org.apiguardian.api.API;

/**
 * What the run tests, decided before its app exists: the recipe tree at the ref under test, that
 * ref, the app domain it makes ({@link AppNaming#domain}), and how the run upgrades.
 *
 * @param ref the ref under test as given ({@code ccci.ref}), else the fetched commit
 */
@API(status = API.Status.INTERNAL)
public record Checkout(RecipeFetch.Fetched tree, String ref, String domain, UpgradePlan upgrade) {
}
