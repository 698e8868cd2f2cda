#!/usr/bin/env bash
# pgbouncer's auth_file from PostgreSQL's own password verifiers (pg_authid), so a password is set in one
# place (ALTER ROLE … PASSWORD, npm run db:roles) and pgbouncer checks it with SCRAM. Run it as a superuser
# of the primary (the postgres user on its machine; PGHOST/PGPORT to reach it from elsewhere) after a
# password changes, then reload pgbouncer (SIGHUP, `systemctl reload pgbouncer`).
#
#   userlist.sh <auth_file> <role>…     e.g. userlist.sh /etc/pgbouncer/userlist.txt oripa_owner oripa_shop pgbouncer_admin
set -euo pipefail
out="${1:?usage: userlist.sh <auth_file> <role>…}"
shift
[ "$#" -gt 0 ] || { echo "userlist.sh: name the roles" >&2; exit 2; }
tmp="$(mktemp "$out.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
psql -X -A -t -q -d postgres -v ON_ERROR_STOP=1 -v roles="$*" > "$tmp" <<'SQL'
select format('"%s" "%s"', rolname, rolpassword)
  from pg_authid
 where rolname = any (string_to_array(:'roles', ' ')) and rolpassword like 'SCRAM-SHA-256$%'
 order by rolname
SQL
found="$(wc -l < "$tmp")"
if [ "$found" -ne "$#" ]; then
  echo "userlist.sh: $found of $# roles have a SCRAM password (set one with ALTER ROLE … PASSWORD; password_encryption = scram-sha-256)" >&2
  exit 1
fi
chmod 600 "$tmp"
mv "$tmp" "$out"
trap - EXIT
