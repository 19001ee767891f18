/**
 * Pictures of the app's page as a person's browser renders it: Debian's chromium headless shell in a
 * container of its own on the {@code proxy} network ({@code PageBrowser}), driven over the DevTools
 * protocol through the container's attached stdin and stdout ({@code DevToolsPipe}).
 *
 * <p>Depends on {@code docker}, {@code swarm} and {@code probe}; only the deployment and the
 * lifecycle depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.browser;

import org.apiguardian.api.API;
