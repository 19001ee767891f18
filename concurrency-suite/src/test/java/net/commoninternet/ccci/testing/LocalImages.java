package net.commoninternet.ccci.testing;

/** The images scripts/setup-local-swarm builds on this host (no registry is reachable). */
public final class LocalImages {

    /** busybox with sh, httpd, wget and nc: what the proofs' services and ccci's probes run. */
    public static final String BUSYBOX = "ccci.local/busybox:1";

    private LocalImages() {
    }
}
