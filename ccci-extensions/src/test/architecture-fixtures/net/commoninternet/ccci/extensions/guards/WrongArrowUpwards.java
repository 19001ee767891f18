package net.commoninternet.ccci.extensions.guards;

import net.commoninternet.ccci.extensions.recipe.AppNaming;

/** ArchitectureTest's fixture: the lowest package using one above it. */
final class WrongArrowUpwards {
    String stack(String domain) {
        return AppNaming.stackName(domain);
    }
}
