/**
 * What a tier or an extension is written against, and all it sees of a run: interfaces the
 * engine and the lifecycle implement. A {@link net.commoninternet.ccci.spi.TierPlugin} gets a
 * {@link net.commoninternet.ccci.spi.TierContext} (the run and its
 * {@link net.commoninternet.ccci.spi.LiveRun}: probes, exec, backups, versions, lint, service
 * logs); a {@link net.commoninternet.ccci.spi.RunExtension} gets a
 * {@link net.commoninternet.ccci.spi.RunContext}; a run's state between callbacks goes in its
 * {@link net.commoninternet.ccci.spi.Store}; outcomes in its
 * {@link net.commoninternet.ccci.spi.RunRecord}, skips typed by
 * {@link net.commoninternet.ccci.spi.SkipKind}. A {@link net.commoninternet.ccci.spi.Driver} is how
 * a run's app is acted on, found through ServiceLoader.
 *
 * <p>Depends on {@code api} only; everything may depend on it. A tier or extension that needs a
 * cast to reach something is a missing method here.
 */
@API(status = API.Status.EXPERIMENTAL)
package net.commoninternet.ccci.spi;

import org.apiguardian.api.API;
