// The machine a report was measured on, written the same way by every benchmark: figures from two
// machines (or from one machine busy with other work) are not comparable, so each report says which.
import os from 'node:os';

/** @example report.machine = describeMachine() // { cpus: 2, model: 'Intel(R) Xeon(R) Processor', … } */
export function describeMachine() {
  return {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    /** 1, 5 and 15 minutes, when the report is written. */
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}
