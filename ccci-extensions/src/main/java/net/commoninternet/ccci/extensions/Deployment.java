package net.commoninternet.ccci.extensions;

/** What the lifecycle hands the tiers once the app is deployed: the app, the engine, how it converged. */
record Deployment(App app, DockerEngine docker, SwarmConvergence.Report convergence) {
}
