#!/bin/bash
# usage: run_bench.sh MECH(a..e) K [extra label] ; env: LOTS (default 3000000), DUR (20), SYNC (on|off)
set -e
cd /tmp/drawlab
export PGHOST=127.0.0.1 PGUSER=postgres PGDATABASE=drawlab
M=$1; K=$2; LABEL=${3:-}; LOTS=${LOTS:-3000000}; DUR=${DUR:-20}; SYNC=${SYNC:-on}
MU=$(echo $M | tr a-z A-Z)
psql -q -v ON_ERROR_STOP=1 -c "CALL reset_all(1, $LOTS, 100, '$MU')" 2>/dev/null
psql -q -c "VACUUM (ANALYZE) members, packs, lots, draws, draw_results, ledger" -c "CHECKPOINT"
TAG=${M}_k${K}_sync${SYNC}${LABEL:+_$LABEL}
mkdir -p logs/$TAG; rm -f logs/$TAG/*
LOAD0=$(cut -d' ' -f1 /proc/loadavg)
PGOPTIONS="-c synchronous_commit=$SYNC" pgbench -n -c 64 -j 2 -T $DUR -f draw_${M}_k${K}.sql \
   --log --log-prefix=logs/$TAG/pgb > logs/$TAG/out.txt 2>&1 || true
TPS=$(grep -oP 'tps = \K[0-9.]+(?= \(without)' logs/$TAG/out.txt)
LAT=$(grep -oP 'latency average = \K[0-9.]+' logs/$TAG/out.txt)
FAILED=$(grep -oP 'number of failed transactions: \K[0-9]+' logs/$TAG/out.txt || echo 0)
ABORT=$(grep -c 'aborted' logs/$TAG/out.txt || true)
PCT=$(cat logs/$TAG/pgb* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END{printf "p50=%.2f p99=%.2f max=%.2f n=%d", a[int(NR*0.5)], a[int(NR*0.99)], a[NR], NR}')
STATE=$(psql -Atc "select 'next='||next_position||' claimed='||(select count(*) from lots where draw_id is not null)||' draws='||(select count(*) from draws)||' results='||(select count(*) from draw_results)||' ledger='||(select count(*) from ledger) from packs where id=1")
echo "$TAG tps=$TPS avg_ms=$LAT $PCT failed=$FAILED aborted_lines=$ABORT load_before=$LOAD0 | $STATE" | tee -a results.txt
