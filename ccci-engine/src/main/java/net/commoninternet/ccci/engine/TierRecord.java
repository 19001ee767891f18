package net.commoninternet.ccci.engine;

/** The first failure seen in one tier (its operation or any check), for AfterTier callbacks. */
final class TierRecord {

    private Throwable failure;

    synchronized void failed(Throwable t) {
        if (failure == null) {
            failure = t;
        }
    }

    synchronized Throwable failure() {
        return failure;
    }
}
