/**
 * Waits, each written once: for work on another thread that keeps the caller's interrupt for
 * afterwards ({@code Waits}: a teardown, a reap or a start under way always ends first), and a bounded
 * wait a person may be watching, which says every ten seconds that it goes on ({@code LongWait}).
 *
 * <p>Depends on nothing of ccci; every other package of ccci-extensions may depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.waits;

import org.apiguardian.api.API;
