package net.commoninternet.ccci.extensions.deployment;

import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.browser.PageBrowser;
import org.apiguardian.api.API;

/**
 * What the run acts on apps with: the engine connection, the run's driver (its deploys counted),
 * the HTTP probe that reaches an app the way the proxy does, and the browser that pictures its page
 * the way a person's would; and the threads that work for the run beside its own.
 */
@API(status = API.Status.INTERNAL)
public record RunTools(DockerEngine docker, AppDriver driver, HttpProbe http, PageBrowser browser, RunThreads threads) {
}
