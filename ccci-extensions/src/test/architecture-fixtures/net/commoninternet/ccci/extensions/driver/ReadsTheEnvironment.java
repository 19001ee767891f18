package net.commoninternet.ccci.extensions.driver;

/** ArchitectureTest's fixture: configuration read outside the engine, and a public type saying nothing of its status. */
public final class ReadsTheEnvironment {
    String home() {
        return System.getenv("HOME") + Integer.getInteger("ccci.x", 1);
    }
}
