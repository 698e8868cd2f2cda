// bench/memory's probe, loaded into the measured processes with `NODE_OPTIONS=--import <this file>`:
// on SIGUSR2 it writes the process's V8 heap figures to $MEMORY_PROBE_DIR/<pid>.json, then the heap
// in use after a full collection. No inspector, no timers: until the signal the shop runs as it would
// without it. The bench reads /proc before it sends the signal.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

const dir = process.env.MEMORY_PROBE_DIR;
if (dir) {
  process.on('SIGUSR2', () => {
    const usage = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    const report = {
      pid: process.pid,
      argv: process.argv.slice(1),
      memoryUsage: usage,
      heap: {
        totalPhysicalSize: heap.total_physical_size,
        usedHeapSize: heap.used_heap_size,
        heapSizeLimit: heap.heap_size_limit,
        externalMemory: heap.external_memory,
        mallocedMemory: heap.malloced_memory,
      },
      spaces: Object.fromEntries(
        v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]),
      ),
    };
    // What is alive: a full collection after the figures above were taken (they come first, as found).
    v8.setFlagsFromString('--expose-gc');
    vm.runInNewContext('gc')();
    report.usedAfterGc = v8.getHeapStatistics().used_heap_size;
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(report));
    fs.renameSync(`${file}.tmp`, file);
  });
}
