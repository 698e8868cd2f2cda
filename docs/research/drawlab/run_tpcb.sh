#!/bin/bash
# usage: run_tpcb.sh LABEL   (needs: pgbench -i -s 64 drawlab done once)
cd /tmp/drawlab
export PGHOST=127.0.0.1 PGUSER=postgres PGDATABASE=drawlab
TAG=tpcb_${1:-x}; SYNC=${SYNC:-on}; mkdir -p logs/$TAG; rm -f logs/$TAG/*
psql -q -c "VACUUM pgbench_branches, pgbench_tellers" -c CHECKPOINT
PGOPTIONS="-c synchronous_commit=$SYNC" pgbench -c 64 -j 2 -T ${DUR:-20} --log --log-prefix=logs/$TAG/pgb > logs/$TAG/out.txt 2>&1
TPS=$(grep -oP 'tps = \K[0-9.]+(?= \(without)' logs/$TAG/out.txt)
LAT=$(grep -oP 'latency average = \K[0-9.]+' logs/$TAG/out.txt)
PCT=$(cat logs/$TAG/pgb* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END{printf "p50=%.2f p99=%.2f max=%.2f n=%d", a[int(NR*0.5)], a[int(NR*0.99)], a[NR], NR}')
echo "${TAG}_sync$SYNC tps=$TPS avg_ms=$LAT $PCT" | tee -a results.txt
