package net.commoninternet.ccci.extensions.deployment;

import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.probe.HttpProbe;

/** {@link LiveApp} for a deployed app: HTTP the way the proxy reaches it, exec in its containers. */
record LiveAppOnSwarm(Deployment deployment) implements LiveApp {

    @Override
    public String domain() {
        return deployment.deployed().domain();
    }

    @Override
    public CiKeys keys() {
        return deployment.prepared().keys();
    }

    @Override
    public Map<String, String> deps() {
        return deployment.deps().domains();
    }

    @Override
    public Response get(String path) throws Exception {
        HttpProbe probe = deployment.tools().http();
        String stack = deployment.deployed().stack();
        HttpProbe.Target target = probe.target(stack).orElseThrow(() -> new IllegalStateException(
                "no service of " + stack + " is routed (traefik.enable=true with a loadbalancer.server.port)"));
        HttpProbe.Answer answer = probe.get(target, domain(), path);
        return new Response(answer.status(), answer.body());
    }

    @Override
    public Response exec(String service, String script) throws Exception {
        ContainerExec exec = deployment.exec();
        ContainerExec.Result result = exec.sh(exec.runningContainer(deployment.deployed().stack() + "_" + service), script);
        return new Response((int) result.exitCode(), result.output());
    }
}
