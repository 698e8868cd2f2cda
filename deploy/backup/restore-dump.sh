#!/usr/bin/env bash
# Restores a dump of pg-dump.sh into an empty database (docs/backups.md), in one transaction: it is
# there whole or not at all. Owners and grants are left out on purpose: the roles they name may not
# exist in this cluster, and the shop, started with DATABASE_ADMIN_URL, makes its roles and every right
# from its own code before it migrates (decision 073), so nothing else is needed before it starts.
#
# The connection comes from libpq's environment, as a superuser of the target cluster: PGHOST, PGPORT,
# PGUSER, PGDATABASE (the database to fill: create it first, `createdb <name>`), the password in
# ~/.pgpass or PGPASSWORD.
#
# Usage: deploy/backup/restore-dump.sh <file.dump>
set -euo pipefail

dump="${1:?usage: restore-dump.sh <file.dump>}"
: "${PGDATABASE:?set PGDATABASE to the (empty) database to restore into}"
pg_restore --list "$dump" >/dev/null

# Never over a shop's tables: a restore over live data would mix two histories.
tables=$(psql --no-psqlrc --no-password --tuples-only --no-align --command \
  "select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'drizzle', 'pgboss') and c.relkind in ('r', 'p')")
if [ "$tables" != "0" ]; then
  echo "restore-dump.sh: the database $PGDATABASE already has $tables tables; restore into a new, empty one" >&2
  exit 1
fi

pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --no-password \
  --dbname="$PGDATABASE" "$dump"
echo "restored $dump into $PGDATABASE; start the shop with DATABASE_ADMIN_URL set, then: npm run shop -- invariants"
