// Timing helpers of the database benchmarks (dashboard, mailbox, rankings): rounding, percentiles and a timed call.
import { performance } from 'node:perf_hooks';

/** Milliseconds rounded to a tenth. @example ms(12.345) === 12.3 */
export const ms = (value: number) => Math.round(value * 10) / 10;

/** The p-th percentile of ascending numbers. @example percentile([1, 2, 3, 4], 0.5) === 3 */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Runs `work` and answers its value and how long it took. @example const { value, ms } = await timed(() => load()) */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: ms(performance.now() - start) };
}
