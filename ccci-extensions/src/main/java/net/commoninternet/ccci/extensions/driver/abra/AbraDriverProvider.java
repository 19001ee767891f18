package net.commoninternet.ccci.extensions.driver.abra;

import java.util.List;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.driver.DriverProvider;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import org.apiguardian.api.API;

/** The abra driver ({@code ccci.driver=abra}): what the production host runs. */
@API(status = API.Status.INTERNAL)
public final class AbraDriverProvider implements DriverProvider {

    @Override
    public String id() {
        return "abra";
    }

    @Override
    public List<String> lintRules() {
        return AbraRecipeLint.CHECKS;
    }

    /** The driver is useless without the binary. */
    @Override
    public void requireAvailable() {
        AbraDriver.requireBinary(ChildEnvironment.inherited().get(ChildEnvironment.PATH));
    }

    /**
     * abra deploys the recipe's files as they are, on the shared {@code proxy} network (the driver's
     * {@link AppDriver#network()}): ccci cannot give the app a network of its own.
     */
    @Override
    public AppDriver create(DockerEngine docker, RunWorkspace workspace, String stack) {
        return new AbraDriver(workspace.children(), new StackTeardown(docker.client()), workspace.abraDir().canonicalServers(),
                workspace.policy());
    }
}
