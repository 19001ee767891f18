package net.commoninternet.ccci.extensions.driver.swarm;

import java.util.List;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.driver.DriverProvider;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import org.apiguardian.api.API;

/** The embedded driver ({@code ccci.driver=swarm}, the default). */
@API(status = API.Status.INTERNAL)
public final class SwarmDriverProvider implements DriverProvider {

    @Override
    public String id() {
        return "swarm";
    }

    @Override
    public List<String> lintRules() {
        return RecipeLint.RULES;
    }

    /** The run's app and its cold dependencies are deployed on the run's own network ({@link RunNetwork}). */
    @Override
    public AppDriver create(DockerEngine docker, RunWorkspace workspace, String stack) {
        return new SwarmDriver(docker, workspace.children(), workspace.backupDir(), workspace.abraDir().canonicalServers(),
                workspace.policy()).onRunNetwork(RunNetwork.of(stack));
    }
}
