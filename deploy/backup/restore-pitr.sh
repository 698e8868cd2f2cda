#!/usr/bin/env bash
# Restores the PostgreSQL cluster as it was at a moment, from pgBackRest's repository (docs/backups.md):
# the last full backup before that moment, then the archived WAL up to it, then promotion. Run as the
# postgres user, with PostgreSQL stopped, into an empty folder (move the damaged one aside, never delete
# it before the restore is checked). Roles come back with the cluster: nothing to repair.
#
# Usage: deploy/backup/restore-pitr.sh '<moment, e.g. 2026-11-29 15:04:05+09>' <empty data folder>
#   PGBACKREST_STANZA  the stanza (default oripa, as pgbackrest.conf)
#   RESTORE_ARCHIVE    `preserve` (default: the restored primary archives its new timeline) or `off`
#                      (a drill or a copy for inspection, which must not write into the repository)
set -euo pipefail

target="${1:?usage: restore-pitr.sh <moment> <empty data folder>}"
folder="${2:?usage: restore-pitr.sh <moment> <empty data folder>}"
if [ -n "$(ls -A "$folder" 2>/dev/null)" ]; then
  echo "restore-pitr.sh: $folder is not empty; move it aside and give an empty folder" >&2
  exit 1
fi
mkdir -p "$folder"
chmod 700 "$folder"

# --target-action=promote: the restored cluster opens for writes at the moment instead of pausing there.
pgbackrest --stanza="${PGBACKREST_STANZA:-oripa}" --pg1-path="$folder" \
  --type=time --target="$target" --target-action=promote \
  --archive-mode="${RESTORE_ARCHIVE:-preserve}" restore
echo "restored to $target in $folder; start PostgreSQL on it, then the shop, then: npm run shop -- invariants"
