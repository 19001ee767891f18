#!/bin/bash
# Entrypoint of ccci.local/postgres:15 (Debian bookworm's postgresql-15), built by
# scripts/setup-local-swarm. It mimics the parts of the official postgres image's entrypoint that
# Co-op Cloud recipes rely on:
#   - PGDATA (default /var/lib/postgresql/data, meant to be a named volume) is initialised on
#     first start only (when PG_VERSION is missing);
#   - POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE (e.g. /run/secrets/db_password), POSTGRES_USER
#     (default postgres: the superuser initdb creates) and POSTGRES_DB (default POSTGRES_USER);
#   - *.sh / *.sql / *.sql.gz in /docker-entrypoint-initdb.d run once after initialisation;
#   - listens on all addresses; TCP clients authenticate with scram-sha-256
#     (POSTGRES_HOST_AUTH_METHOD overrides, e.g. md5 or trust); the Unix socket is trusted, so
#     `docker exec <task> pg_dump -U "$POSTGRES_USER" "$POSTGRES_DB"` works without a password;
#   - the server runs in the foreground as the postgres user and logs to stderr.
# Unlike the official image (which sets STOPSIGNAL SIGINT; `docker import` cannot set a stop
# signal), this script stays PID 1 and turns the SIGTERM that docker/swarm sends into SIGINT,
# PostgreSQL's "fast" shutdown: sessions are ended, a shutdown checkpoint is written, and the
# container exits within a second instead of waiting for clients ("smart" shutdown on SIGTERM).
set -Eeuo pipefail

: "${PGDATA:=/var/lib/postgresql/data}"
export PGDATA

log() { printf '%s [entrypoint] %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" "$*" >&2; }

# VAR or VAR_FILE (not both), like the official image.
file_env() {
  local var=$1 fvar="${1}_FILE" def=${2:-}
  if [ -n "${!var:-}" ] && [ -n "${!fvar:-}" ]; then
    log "error: both $var and $fvar are set (but are exclusive)"; exit 1
  fi
  local val=$def
  if [ -n "${!var:-}" ]; then val=${!var}
  elif [ -n "${!fvar:-}" ]; then
    [ -r "${!fvar}" ] || { log "error: $fvar=${!fvar} is not readable"; exit 1; }
    val=$(< "${!fvar}")
  fi
  export "$var=$val"
  unset "$fvar"
}

# `docker run IMAGE -c foo=bar` passes server options.
if [ $# -eq 0 ] || [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "${1:-}" != postgres ]; then exec "$@"; fi
for arg; do   # postgres --version / --help: no initialisation, no server
  case "$arg" in -'?'|--help|--describe-config|-V|--version) exec "$@" ;; esac
done

if [ "$(id -u)" = 0 ]; then
  # As root: fix ownership of the volume and the socket directory, then run this script again
  # as postgres. The password is not read here (it would stay visible in PID 1's environment);
  # a secret only root may read (mode 0400) is handed over as a private copy, removed after use.
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres /var/run/postgresql
  chmod 2775 /var/run/postgresql
  if [ ! -s "$PGDATA/PG_VERSION" ] && [ -n "${POSTGRES_PASSWORD_FILE:-}" ] && [ -r "$POSTGRES_PASSWORD_FILE" ] &&
     ! setpriv --reuid=postgres --regid=postgres --init-groups test -r "$POSTGRES_PASSWORD_FILE"; then
    install -o postgres -g postgres -m 0400 "$POSTGRES_PASSWORD_FILE" /var/run/postgresql/.password
    export POSTGRES_PASSWORD_FILE=/var/run/postgresql/.password
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then chown postgres:postgres "$PGDATA"; fi
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_HOST_AUTH_METHOD:=scram-sha-256}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  # The password is only needed (and the secret only read) when initialising.
  file_env POSTGRES_PASSWORD
  rm -f /var/run/postgresql/.password
  if [ -z "$POSTGRES_PASSWORD" ] && [ "$POSTGRES_HOST_AUTH_METHOD" != trust ]; then
    log "error: database is uninitialised and no superuser password is set:"
    log "  set POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE (or POSTGRES_HOST_AUTH_METHOD=trust)"
    exit 1
  fi
  log "initialising $PGDATA (superuser $POSTGRES_USER, database $POSTGRES_DB)"
  pwfile=$(mktemp); trap 'rm -f "$pwfile"' EXIT
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  # --auth-local=trust: the socket is only reachable from inside the container (docker exec).
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
         --auth-local=trust --auth-host="$POSTGRES_HOST_AUTH_METHOD" ${POSTGRES_INITDB_ARGS:-} >&2
  rm -f "$pwfile"; trap - EXIT
  {
    echo
    echo "# added by the ccci entrypoint: clients on the overlay network"
    echo "host all all all $POSTGRES_HOST_AUTH_METHOD"
  } >> "$PGDATA/pg_hba.conf"
  {
    echo
    echo "# added by the ccci entrypoint"
    echo "listen_addresses = '*'"
    # Keep Debian's socket directory, which psql/pg_dump default to.
    echo "unix_socket_directories = '/var/run/postgresql'"
  } >> "$PGDATA/postgresql.conf"

  # Temporary server on the socket only, for CREATE DATABASE and the init scripts.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w -t 60 start >&2
  psql=(psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres)
  if [ "$POSTGRES_DB" != postgres ]; then
    "${psql[@]}" --set db="$POSTGRES_DB" <<< 'CREATE DATABASE :"db";' >&2
  fi
  psql+=(--dbname "$POSTGRES_DB")
  for f in /docker-entrypoint-initdb.d/*; do
    [ -e "$f" ] || continue
    case "$f" in
      *.sh)     log "running $f"; . "$f" ;;
      *.sql)    log "running $f"; "${psql[@]}" -f "$f" >&2 ;;
      *.sql.gz) log "running $f"; gunzip -c "$f" | "${psql[@]}" >&2 ;;
      *)        log "ignoring $f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >&2
  log "initialisation done"
fi
unset POSTGRES_PASSWORD POSTGRES_PASSWORD_FILE

log "starting: $*"
"$@" &
pid=$!
trap 'log "SIGTERM/SIGINT: fast shutdown"; kill -INT "$pid" 2>/dev/null || true' TERM INT
# `wait` returns early (status > 128) when a trapped signal arrives: wait again until the server
# has gone, then collect its own exit status.
status=0
wait "$pid" || status=$?
while kill -0 "$pid" 2>/dev/null; do status=0; wait "$pid" || status=$?; done
if [ "$status" -gt 128 ]; then status=0; wait "$pid" 2>/dev/null || status=$?; fi
log "postgres exited with status $status"
exit "$status"
