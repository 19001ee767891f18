/**
 * The recipe policy: what a recipe's compose may ask of the host, judged on the compose exactly as the
 * deploy would get it ({@code ComposeConfig}) before anything is deployed ({@code DeployPolicy}): an
 * allowlist of every key ({@code ComposeAllowlist}, written in {@code ComposeRules}), labels by the
 * tool that reads them ({@code ComposeLabels}, {@code TraefikLabels}), image registries
 * ({@code ImageRegistry}), resource bounds per service ({@code ResourceBounds}) and their sum over the
 * run against one run's share of the host ({@code RunShare}), every service's log rotation
 * ({@code LogBounds}), and how long a deploy may take ({@code DeployTimeout}).
 *
 * <p>Depends on {@code recipe} and {@code children} (and {@code lifecycle}: the host's trust); the
 * workspace, the drivers, the swarm and the lifecycle depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.policy;

import org.apiguardian.api.API;
