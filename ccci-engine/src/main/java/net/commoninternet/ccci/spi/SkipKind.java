package net.commoninternet.ccci.spi;

import org.apiguardian.api.API;

/**
 * Why a check or a tier was skipped: what the results make of it. A structural or intentional
 * skip beside passing checks leaves its rung passing; a lint finding fails the lint rung while
 * the run stays green; anything else means nobody knows, and the rung reads unver: an unexplained
 * skip, or a failure the host caused ({@link #INFRASTRUCTURE}).
 */
@API(status = API.Status.EXPERIMENTAL)
public enum SkipKind {
    /** The recipe has nothing this check could judge (no backup labels, no older release, no READY_PROBE). */
    STRUCTURAL("structural skip: "),
    /** The recipe declares the tier not applicable ({@code EXPECTED_NA}, {@code BACKUP_CAPABLE=false}). */
    INTENTIONAL("intentional skip: "),
    /** The lint found something: verdict-neutral for the run, a fail of the lint rung. */
    LINT_FINDING("lint finding (verdict-neutral): "),
    /** Nothing was checked (no implementation, a lint that did not run, a rule it did not report). */
    UNVERIFIED(""),
    /**
     * The host failed it, not the recipe ({@link HostFault}, whose message says why and what to do): nothing
     * was proven either way, so the rung reads unver and the run unverified, never failed.
     */
    INFRASTRUCTURE("");

    private final String prefix;

    SkipKind(String prefix) {
        this.prefix = prefix;
    }

    /** How a reason of this kind reads in a report: {@code structural skip: <reason>}. */
    public String describe(String reason) {
        return prefix + reason;
    }
}
