# Versions of the configs this recipe vendors: bump one whenever its file changes, or swarm
# refuses the upgrade (a config's content never changes under the same name).
# (1.1.0 changed nginx.conf.tmpl and forgot to bump this: the canary's mistake.)
export NGINX_CONF_VERSION=v1
