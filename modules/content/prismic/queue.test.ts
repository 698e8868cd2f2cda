// The Prismic job queue: 1500 ms between jobs and attempts, at most 3 attempts, no retry of a final
// failure. On a fake clock (issue 30 item 9: the unit tier never sleeps in real time): the gaps are
// exact, and a busy machine cannot make them pass or fail.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJobQueue } from './queue';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the fake clock run until every given promise has settled. */
async function runUntilSettled(promises: Promise<unknown>[]) {
  let pending = true;
  void Promise.allSettled(promises).then(() => (pending = false));
  while (pending) await vi.advanceTimersByTimeAsync(100);
}

describe('the Prismic job queue', () => {
  it('starts each job and attempt 1500 ms after the previous ended, and gives up after 3 attempts', async () => {
    const queue = createJobQueue({ intervalMs: 1500, maxAttempts: 3, retryable: (e) => e === 'try again' });
    const starts: { job: string; at: number }[] = [];
    const failing = queue.run(async (attempt) => {
      starts.push({ job: `failing#${attempt}`, at: Date.now() });
      throw 'try again';
    });
    const final = queue.run(async () => {
      starts.push({ job: 'final', at: Date.now() });
      throw 'no use';
    });
    const succeeding = queue.run(async (attempt) => {
      starts.push({ job: 'succeeding', at: Date.now() });
      return attempt;
    });
    const outcomes = [
      expect(failing).rejects.toBe('try again'),
      expect(final).rejects.toBe('no use'),
      expect(succeeding).resolves.toBe(1),
    ];
    await runUntilSettled([failing, final, succeeding]);
    await Promise.all(outcomes);
    expect(starts.map((s) => s.job)).toEqual(['failing#1', 'failing#2', 'failing#3', 'final', 'succeeding']);
    for (let i = 1; i < starts.length; i++) {
      const gap = starts[i]!.at - starts[i - 1]!.at;
      expect(gap).toBeGreaterThanOrEqual(1500);
      // The clock steps 100 ms at a time: a start never waits a step longer than it must.
      expect(gap).toBeLessThan(1600);
    }
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
