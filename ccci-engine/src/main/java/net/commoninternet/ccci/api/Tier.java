package net.commoninternet.ccci.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The tiers of a recipe CI run, in the order a run executes them. The order is part of the
 * contract: upgrade runs on the installed app, restore needs the backup before it.
 */
@API(status = API.Status.EXPERIMENTAL)
public enum Tier {
    INSTALL(1),
    UPGRADE(2),
    BACKUP(3),
    RESTORE(3),
    CUSTOM(4),
    LINT(5);

    private final int rung;

    Tier(int rung) {
        this.rung = rung;
    }

    /** The rung of the level ladder this tier counts towards (backup and restore share one). */
    public int rung() {
        return rung;
    }

    /** The lower-case name used in unique ids, {@code ccci.stages} and reports. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Tier> fromId(String id) {
        return Arrays.stream(values()).filter(t -> t.id().equals(id.trim().toLowerCase(Locale.ROOT))).findFirst();
    }
}
