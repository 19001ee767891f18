/**
 * Every helper process the real-process tests start, in one place: each a {@code main} that holds a
 * real flock or lease, installs real guards, sweeps, fetches or reads logs, and says what it did on
 * its standard output, one line a step, for the test driving it ({@code testing.Helper} starts and
 * reads them; {@code Orphanage} reparents them to test parent death).
 */
package net.commoninternet.ccci.testing.helpers;
