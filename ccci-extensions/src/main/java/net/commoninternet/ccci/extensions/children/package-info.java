/**
 * Every child process of a run: started in its own session from an environment ccci chooses, never
 * the JVM's whole one ({@code ChildProcesses}, {@code ChildEnvironment}), its output drained and
 * capped ({@code CappedOutput}), and killed with its whole group ({@code GroupMembers}).
 *
 * <p>Depends on {@code lifecycle} for the host's variable names only; every other package of
 * ccci-extensions may depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.children;

import org.apiguardian.api.API;
