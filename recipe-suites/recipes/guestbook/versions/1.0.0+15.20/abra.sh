# Versions of the configs this recipe vendors: bump one whenever its file changes.
export APP_CGI_VERSION=v1
export PG_BACKUP_VERSION=v1
