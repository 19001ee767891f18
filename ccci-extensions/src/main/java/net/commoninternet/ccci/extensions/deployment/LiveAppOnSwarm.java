package net.commoninternet.ccci.extensions.deployment;

import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.extensions.swarm.HttpProbe;

/** {@link LiveApp} for a deployed app: HTTP the way the proxy reaches it, exec in its containers. */
public record LiveAppOnSwarm(Deployment deployment, CiKeys keys, java.util.Map<String, String> deps) implements LiveApp {

    @Override
    public String domain() {
        return deployment.app().domain();
    }

    @Override
    public Response get(String path) throws Exception {
        HttpProbe probe = new HttpProbe(deployment.docker().client());
        String stack = deployment.app().stack();
        HttpProbe.Target target = probe.target(stack).orElseThrow(() -> new IllegalStateException(
                "no service of " + stack + " is routed (traefik.enable=true with a loadbalancer.server.port)"));
        HttpProbe.Answer answer = probe.get(stack, target, domain(), path);
        return new Response(answer.status(), answer.body());
    }

    @Override
    public Response exec(String service, String script) throws Exception {
        ContainerExec exec = new ContainerExec(deployment.docker().client());
        ContainerExec.Result result = exec.sh(exec.runningContainer(deployment.app().stack() + "_" + service), script);
        return new Response((int) result.exitCode(), result.output());
    }

}
