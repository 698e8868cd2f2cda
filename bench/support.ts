// What the benchmarks share: rounding, percentiles of sorted times, and timing one piece of work.
import { performance } from 'node:perf_hooks';

/** Milliseconds to one decimal. @example ms(12.345) === 12.3 */
export const ms = (value: number) => Math.round(value * 10) / 10;

/** @example percentile([1, 2, 3, 4], 0.5) === 3 */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** @example const { value, ms } = await timed(() => loadDashboard(db, operator, new Date())) */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: ms(performance.now() - start) };
}
