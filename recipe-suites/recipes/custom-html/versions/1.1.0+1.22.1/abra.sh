# Versions of the configs this recipe vendors: bump one whenever its file changes, or swarm
# refuses the upgrade (a config's content never changes under the same name).
export NGINX_CONF_VERSION=v2
