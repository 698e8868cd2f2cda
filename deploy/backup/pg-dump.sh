#!/usr/bin/env bash
# A logical backup of the shop's database by its owner role (docs/backups.md): pg_dump's custom format,
# written under a temporary name, read back whole (pg_restore --list) and only then given its name, so a
# file without `.partial` is always complete. The owner owns every table, function and schema, so it
# dumps everything without a superuser; roles are the cluster's and are not in the file (decision 073).
#
# The connection comes from libpq's environment, never the command line (where `ps` shows it):
# PGHOST, PGPORT, PGDATABASE, PGUSER (the owner role, DATABASE_MIGRATION_URL's), and the password in
# ~/.pgpass (mode 600) or PGPASSWORD. Run it against the primary: a standby can cancel a long dump.
#
# Usage: deploy/backup/pg-dump.sh <folder>      prints the file it wrote: <folder>/oripa-<UTC time>.dump
set -euo pipefail

folder="${1:?usage: pg-dump.sh <folder>}"
umask 077
mkdir -p "$folder"
file="$folder/oripa-$(date -u +%Y%m%dT%H%M%SZ).dump"
trap 'rm -f "$file.partial"' EXIT

# --no-password: a cron job fails at once instead of waiting for a password nobody types.
pg_dump --format=custom --no-password --file="$file.partial"
pg_restore --list "$file.partial" >/dev/null
mv "$file.partial" "$file"
trap - EXIT
echo "$file"
