package net.commoninternet.ccci.extensions.brandnew;

import net.commoninternet.ccci.extensions.tiers.InstallTier;

/** ArchitectureTest's fixture: a new package nobody placed in a layer, using a tier (which nothing may). */
public final class ClassInANewPackage {
    Object tier() {
        return new InstallTier();
    }
}
