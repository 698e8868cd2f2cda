// The Prismic job queue: 1500 ms between jobs and attempts, at most 3 attempts, no retry of a final failure.
import { describe, expect, it } from 'vitest';
import { createJobQueue } from './queue';

describe('the Prismic job queue', () => {
  it('starts each job and attempt at least 1500 ms after the previous ended, and gives up after 3 attempts', async () => {
    const queue = createJobQueue({ intervalMs: 1500, maxAttempts: 3, retryable: (e) => e === 'try again' });
    const starts: { job: string; at: number }[] = [];
    const failing = queue.run(async (attempt) => {
      starts.push({ job: `failing#${attempt}`, at: performance.now() });
      throw 'try again';
    });
    const final = queue.run(async () => {
      starts.push({ job: 'final', at: performance.now() });
      throw 'no use';
    });
    const succeeding = queue.run(async (attempt) => {
      starts.push({ job: 'succeeding', at: performance.now() });
      return attempt;
    });
    await expect(failing).rejects.toBe('try again');
    await expect(final).rejects.toBe('no use');
    await expect(succeeding).resolves.toBe(1);
    expect(starts.map((s) => s.job)).toEqual(['failing#1', 'failing#2', 'failing#3', 'final', 'succeeding']);
    for (let i = 1; i < starts.length; i++)
      // Timers may fire a millisecond early; only the lower bound is asserted (a busy machine is slower).
      expect(starts[i]!.at - starts[i - 1]!.at).toBeGreaterThanOrEqual(1495);
  });

  it('refuses new jobs and wakes waiting ones once closed', async () => {
    const queue = createJobQueue({ intervalMs: 1500, maxAttempts: 3, retryable: () => true });
    await queue.run(async () => 'first');
    const waiting = queue.run(async () => 'never');
    const reason = new Error('closed');
    queue.close(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(queue.run(async () => 'late')).rejects.toBe(reason);
  });
});
