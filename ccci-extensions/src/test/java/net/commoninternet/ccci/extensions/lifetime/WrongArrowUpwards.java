package net.commoninternet.ccci.extensions.lifetime;

import net.commoninternet.ccci.extensions.workspace.AppNaming;

/** ArchitectureTest's fixture: the lowest package using one above it. */
final class WrongArrowUpwards {
    String stack(String domain) {
        return AppNaming.stackName(domain);
    }
}
