/**
 * Several recipes in one command: the JUnit Platform's own parallel executor, configured under
 * {@code ccci.parallel.config.} ({@link net.commoninternet.ccci.engine.parallel.ParallelExecution}),
 * and the operator's bound on runs in flight held by ccci itself around it
 * ({@link net.commoninternet.ccci.engine.parallel.RunSlots}).
 *
 * <p>Depends on {@code config} and {@code descriptor}; {@code discovery} and the engine's root depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.engine.parallel;

import org.apiguardian.api.API;
