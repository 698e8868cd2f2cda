# summarize results.txt -> median per (mechanism, k, sync) over the selected run groups
import re, statistics as st, collections
rows = []
for line in open('/tmp/drawlab/results.txt'):
    tag = line.split()[0]
    kv = dict(re.findall(r'(\w+)=([0-9.]+)', line.split('|')[0]))
    rows.append((tag, {k: float(v) for k, v in kv.items()}))
# TPC-B: include the first run (logs/tpcb/run1.txt, no per-txn log): tps 2727.53, avg 23.464
tp = [r['tps'] for t, r in rows if t.startswith('tpcb') and t.endswith('syncon')] + [2727.533347]
tpcb = st.median(tp)
print(f"TPC-B sync on: runs={len(tp)} median tps={tpcb:.0f} range {min(tp):.0f}-{max(tp):.0f}")
groups = {
  # main schema = no FK from draws.pack_id to the hot pack row
  'A': r'^a_k(\d+)_sync(on|off)_nopackfk(_r\d)?$',
  'B': r'^b_k(\d+)_sync(on|off)_nopackfk(_r\d)?$',
  'C': r'^c_k(\d+)_sync(on|off)_nopackfk(_r\d)?$',
  'D': r'^d_k(\d+)_sync(on|off)_(nopackfk(_r\d)?|r5pair)$',
  'E': r'^e_k(\d+)_sync(on|off)_(v2idx_r\d|r5pair)$',
  'E(v1, no partial idx)': r'^e_k(\d+)_sync(on|off)_nopackfk(_r\d)?$',
  'B with pack FK': r'^b_k(\d+)_sync(on)_r1$',
  'C with pack FK': r'^c_k(\d+)_sync(on)_r1$',
  'D with pack FK': r'^d_k(\d+)_sync(on)_r1$',
  'A with pack FK': r'^a_k(\d+)_sync(on)_r1$',
}
out = collections.OrderedDict()
for name, rx in groups.items():
    for t, r in rows:
        m = re.match(rx, t)
        if m: out.setdefault((name, int(m.group(1)), m.group(2)), []).append(r)
print(f"{'mechanism':24} {'k':>3} {'sync':>4} {'runs':>4} {'draws/s med':>11} {'(range)':>13} {'avg ms':>7} {'p50 ms':>7} {'p99 ms':>7} {'lots/s':>7} {'÷TPC-B':>7}")
for (name, k, sync), rs in sorted(out.items(), key=lambda x: (x[0][2] != 'on', x[0][0], x[0][1])):
    tps = [r['tps'] for r in rs]
    med = st.median(tps)
    print(f"{name:24} {k:>3} {sync:>4} {len(rs):>4} {med:>11.0f} {f'({min(tps):.0f}-{max(tps):.0f})':>13} "
          f"{st.median([r['avg_ms'] for r in rs]):>7.1f} {st.median([r['p50'] for r in rs]):>7.1f} {st.median([r['p99'] for r in rs]):>7.1f} {med*k:>7.0f} {med/tpcb:>7.2f}")
