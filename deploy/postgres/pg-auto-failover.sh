#!/usr/bin/env bash
# The shop's PostgreSQL: a pg_auto_failover monitor and two data nodes (a primary and its synchronous
# standby), created the same way on a developer's loopback (npm run topology) and on real machines
# (docs/deploy.md). Run it as the user that owns the data (postgres); it needs pg_autoctl and psql, not Node.
#
#   pg-auto-failover.sh monitor      creates the monitor in $PGDATA
#   pg-auto-failover.sh node         creates a data node in $PGDATA (the first becomes the primary, the
#                                    next one its standby, cloned from it), with the shop's settings file
#   pg-auto-failover.sh formation    on the monitor: the replication settings (number_sync_standbys)
#   pg-auto-failover.sh check-role   on the primary: the role haproxy's primary check logs in as
#   pg-auto-failover.sh run          runs the node's service in the foreground (systemd: `pg_autoctl show systemd`)
#
# Settings, from the environment:
#   PGDATA             the node's data folder
#   PGPORT             its port
#   PGAF_HOSTNAME      the address the other nodes and the monitor reach it at
#   PGAF_LISTEN        listen_addresses (default: PGAF_HOSTNAME)
#   PGAF_AUTH          authentication pg_auto_failover writes into pg_hba.conf for its own connections:
#                      scram-sha-256 (default; set the passwords as docs/deploy.md says) or trust (loopback only)
#   PGAF_SSL           --ssl-self-signed (default) or --no-ssl (loopback only)
#   PGAF_MONITOR_URI   node, formation: the monitor, postgres://autoctl_node@<monitor>:<port>/pg_auto_failover?sslmode=…
#   PGAF_NODE_NAME     node: its name (node1, node2)
#   PGAF_DBNAME        node: the shop's database (default shop)
#   PGAF_SHOP_CONF     node: the rendered postgresql.shop.conf, included after pg_auto_failover's settings
#   PGAF_DATA_NODES    formation: how many data nodes (default 2)
#   PGAF_CHECK_ROLE    check-role: the role's name (default haproxy_check)
#   PG_BINDIR          PostgreSQL's programs (default: the newest /usr/lib/postgresql/*/bin)
set -euo pipefail

PG_BINDIR="${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
export PATH="$PG_BINDIR:$PATH"
: "${PGDATA:?PGDATA: the data folder}"
export PGDATA
AUTH="${PGAF_AUTH:-scram-sha-256}"
SSL="${PGAF_SSL:---ssl-self-signed}"
# initdb takes its encoding from the locale: the shop's database is UTF-8.
export LANG=C.UTF-8 LC_ALL=C.UTF-8

# The shop's settings go after pg_auto_failover's include in postgresql.conf, so they win where both set one.
include_shop_settings() {
  [ -n "${PGAF_SHOP_CONF:-}" ] || return 0
  cp "$PGAF_SHOP_CONF" "$PGDATA/postgresql.shop.conf"
  grep -q "^include_if_exists = 'postgresql.shop.conf'" "$PGDATA/postgresql.conf" ||
    printf "\n# The shop's settings (deploy/postgres/postgresql.shop.conf)\ninclude_if_exists = 'postgresql.shop.conf'\n" >> "$PGDATA/postgresql.conf"
}

case "${1:-}" in
  monitor)
    : "${PGPORT:?}" "${PGAF_HOSTNAME:?}"
    pg_autoctl create monitor --pgdata "$PGDATA" --pgport "$PGPORT" --pgctl "$PG_BINDIR/pg_ctl" \
      --hostname "$PGAF_HOSTNAME" --auth "$AUTH" $SSL
    pg_autoctl config set --pgdata "$PGDATA" postgresql.listen_addresses "${PGAF_LISTEN:-$PGAF_HOSTNAME}"
    ;;
  node)
    : "${PGPORT:?}" "${PGAF_HOSTNAME:?}" "${PGAF_MONITOR_URI:?}" "${PGAF_NODE_NAME:?}"
    pg_autoctl create postgres --pgdata "$PGDATA" --pgport "$PGPORT" --pgctl "$PG_BINDIR/pg_ctl" \
      --listen "${PGAF_LISTEN:-$PGAF_HOSTNAME}" --hostname "$PGAF_HOSTNAME" --name "$PGAF_NODE_NAME" \
      --dbname "${PGAF_DBNAME:-shop}" --monitor "$PGAF_MONITOR_URI" --auth "$AUTH" $SSL \
      --candidate-priority 50 --replication-quorum true
    include_shop_settings
    ;;
  formation)
    # pg_auto_failover accepts number_sync_standbys = N only with N + 1 standbys. With two data nodes it is
    # 0, and the primary still waits for its one standby (synchronous_standby_names = 'ANY 1 (…)') for as
    # long as the monitor knows it healthy; three data nodes allow 1: two copies even with a standby down.
    # Set through the monitor's own function: pg_autoctl 2.0's `set formation number-sync-standbys` reads a
    # stale errno and refuses every value.
    : "${PGAF_MONITOR_URI:?}"
    nodes="${PGAF_DATA_NODES:-2}"
    psql -X -q -At "$PGAF_MONITOR_URI" -v ON_ERROR_STOP=1 \
      -c "select pgautofailover.set_formation_number_sync_standbys('default', $((nodes > 2 ? nodes - 2 : 0)))" > /dev/null
    pg_autoctl get formation settings --pgdata "$PGDATA"
    ;;
  check-role)
    : "${PGPORT:?}"
    role="${PGAF_CHECK_ROLE:-haproxy_check}"
    # Logs in and does nothing else: haproxy reads in_hot_standby from the login's answer (docs/deploy.md).
    # As the postgres user on the primary's machine (its socket; PGHOST to go over TCP instead).
    psql -X -q -p "$PGPORT" -d postgres -v ON_ERROR_STOP=1 -v role="$role" <<'SQL'
select format('create role %I login connection limit 10', :'role')
 where not exists (select 1 from pg_roles where rolname = :'role') \gexec
SQL
    ;;
  run)
    exec pg_autoctl run --pgdata "$PGDATA"
    ;;
  *)
    sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
