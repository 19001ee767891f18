#!/bin/sh
# guestbook's page of entries, read from the database on every request. Rendered by swarm
# (template_driver: golang) when the task starts.
printf 'Content-Type: text/html\r\n\r\n'
printf '<h1>{{ env "DOMAIN" }} guest book</h1>\n'
export PGPASSWORD="$(cat /run/secrets/db_password)"
# 1.1.0: how many entries there are, above them
printf '<p>%s entries</p>\n<ul>\n' "$(psql -X -A -t -q -h {{ env "DB_HOST" }} -U guestbook -d guestbook -c 'select count(*) from entries')"
psql -X -A -t -q -h {{ env "DB_HOST" }} -U guestbook -d guestbook \
  -c "select '<li>' || body || '</li>' from entries order by id" 2>&1 || echo '<li>(the database did not answer)</li>'
printf '</ul>\n'
