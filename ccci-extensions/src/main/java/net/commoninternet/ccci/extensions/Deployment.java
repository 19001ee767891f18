package net.commoninternet.ccci.extensions;

/**
 * What the lifecycle hands the tiers once the app is deployed: the app, its driver, the engine,
 * the run's child processes (with its ABRA_DIR), and how the deploy converged.
 */
record Deployment(App app, AppDriver driver, DockerEngine docker, ChildProcesses children,
                  SwarmConvergence.Report convergence) {
}
