#!/bin/sh
# guestbook's page of entries, read from the database on every request. Rendered by swarm
# (template_driver: golang) when the task starts.
printf 'Content-Type: text/html\r\n\r\n'
printf '<h1>{{ env "DOMAIN" }} guest book</h1>\n<ul>\n'
PGPASSWORD=$(cat /run/secrets/db_password) psql -X -A -t -q -h {{ env "DB_HOST" }} -U guestbook -d guestbook \
  -c "select '<li>' || body || '</li>' from entries order by id" 2>&1 || echo '<li>(the database did not answer)</li>'
printf '</ul>\n'
