package net.commoninternet.ccci.extensions.run;

import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.lifecycle.SpareSlots;

/**
 * What one run is given by its command and its guards: the shared (masked) console, the run's own
 * log, the run's lifetime guards, the threads that work for it beside its own, and the command's run
 * slots no run holds (for its upgrades from other bases).
 */
record RunMeans(RedactedConsole console, RedactedConsole.RunLog runLog, LifetimeGuards guards, RunHelpers threads,
        SpareSlots spare) {
}
