#!/bin/sh
# backupbot's hooks for guestbook's database (a swarm config, versioned in abra.sh): "backup"
# writes a plain SQL dump into the volume, the only file backupbot keeps of it
# (backupbot.backup.volumes.postgres.path); "restore" loads the restored dump and removes it.
set -eu
dump=/var/lib/postgresql/data/backup.sql
case "${1:-}" in
  backup)  pg_dump -U "$POSTGRES_USER" --clean --if-exists --no-owner "$POSTGRES_DB" > "$dump" ;;
  restore) psql -X -q -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -f "$dump" > /dev/null
           rm -f "$dump" ;;
  *)       echo "usage: $0 backup|restore" >&2; exit 2 ;;
esac
