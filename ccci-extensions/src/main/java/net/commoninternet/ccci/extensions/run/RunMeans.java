package net.commoninternet.ccci.extensions.run;

import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;

/**
 * What one run is given by its command and its guards: the shared (masked) console, the run's own
 * log, the run's lifetime guards, and the threads that work for it beside its own.
 */
record RunMeans(RedactedConsole console, RedactedConsole.RunLog runLog, LifetimeGuards guards, RunHelpers threads) {
}
