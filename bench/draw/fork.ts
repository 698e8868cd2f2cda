// The draw load generator in a fresh process of its own (bench/draw/load-worker.ts), so it does not share
// the servers' event loops and its CPU time is counted apart. Used by bench/draw and bench/topology.
import { fork } from 'node:child_process';
import type { PhaseResult, PhaseSpec } from './load-worker';

export type { PhaseResult, PhaseSpec } from './load-worker';

/**
 * Runs one phase in a fresh load-generator process and waits for it to exit (so its CPU time is counted).
 * @example const result = await runWorker({ kind: 'timed', origins, members, gachaId, count: 1, concurrency: 32, seconds: 15, keyPrefix: 'a', seed: 1 })
 */
export function runWorker(spec: PhaseSpec): Promise<PhaseResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./load-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
    let result: PhaseResult | undefined;
    child.once('message', (message) => (result = message as PhaseResult));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 && result ? resolve(result) : reject(new Error(`draw load generator exited with ${code}`)),
    );
    child.send(spec);
  });
}
