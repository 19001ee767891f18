package net.commoninternet.ccci.extensions.deployment;

import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.App;

/**
 * What the lifecycle hands the tiers once the app is deployed: the app, its driver, the engine,
 * the run's child processes (with its ABRA_DIR), and how the deploy converged.
 */
public record Deployment(App app, AppDriver driver, DockerEngine docker, ChildProcesses children,
                  SwarmConvergence.Report convergence) {
}
