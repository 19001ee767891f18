package net.commoninternet.ccci.extensions;

/** What the lifecycle hands the tiers once the app is deployed: the app, its driver, the engine, how it converged. */
record Deployment(App app, AppDriver driver, DockerEngine docker, SwarmConvergence.Report convergence) {
}
