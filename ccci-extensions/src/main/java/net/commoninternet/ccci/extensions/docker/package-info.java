/**
 * The run's Docker engine itself: the connection made once per run before anything touches the
 * host ({@code DockerEngine}: no engine or no active swarm is one sentence), a unix socket that
 * never speaks TLS ({@code UnixSocketTls}), the engine's object lists as JSON ({@code EngineLists}),
 * where a swarm's per-node objects live ({@code SwarmNodes}), and the streams ccci opens: closed
 * once closed ({@code EngineStream}), an attached container's stdin ({@code AttachedStdin}).
 *
 * <p>Depends on {@code children} and {@code waits}; every package that talks to the engine depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.docker;

import org.apiguardian.api.API;
