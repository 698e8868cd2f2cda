// The one queue every Prismic job goes through (specification section 9: queue interval 1500 ms, at most
// 3 attempts): refreshes and previews run one at a time, each start at least the interval after the
// previous job (or attempt) ended, so a busy shop never sends Prismic bursts; a failed attempt that may
// succeed later is tried again in the job's own turn, up to the cap.
import { pause, type Pause } from './http';

export interface JobQueue {
  /** Runs `job` in turn; `attempt` counts from 1. Rejects with the last attempt's error. */
  run<T>(job: (attempt: number) => Promise<T>): Promise<T>;
  /** Refuses further jobs and wakes every waiting one with `reason`. */
  close(reason: Error): void;
}

/**
 * @example const queue = createJobQueue({ intervalMs: 1500, maxAttempts: 3, retryable: (e) => true })
 */
export function createJobQueue(rules: {
  intervalMs: number;
  maxAttempts: number;
  /** Whether another attempt may succeed (a timeout, a 5xx) rather than fail the same way (a 401). */
  retryable: (error: unknown) => boolean;
  /** How to wait out the interval (a real timer unless a test passes a fake clock's). */
  pause?: Pause;
}): JobQueue {
  let tail: Promise<unknown> = Promise.resolve();
  // Date.now() rather than a monotonic clock: tests move the wall clock to expire the repository cache.
  let lastEnd = -Infinity;
  let closedWith: Error | null = null;
  // close() wakes every sleeping job at once, which then sees closedWith.
  const closing = new AbortController();
  const sleep = (ms: number) => (rules.pause ?? pause)(ms, closing.signal).catch(() => undefined);

  async function turn<T>(job: (attempt: number) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      if (closedWith) throw closedWith;
      const wait = lastEnd + rules.intervalMs - Date.now();
      if (wait > 0) await sleep(wait);
      if (closedWith) throw closedWith;
      try {
        return await job(attempt);
      } catch (error) {
        if (attempt >= rules.maxAttempts || !rules.retryable(error) || closedWith) throw error;
      } finally {
        lastEnd = Date.now();
      }
    }
  }

  return {
    run(job) {
      if (closedWith) return Promise.reject(closedWith);
      const result = tail.then(() => turn(job));
      tail = result.catch(() => undefined);
      return result;
    },
    close(reason) {
      closedWith = reason;
      closing.abort(reason);
    },
  };
}
