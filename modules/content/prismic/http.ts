// The fetch the Prismic client is given: what @prismicio/client 7.22 does not do as the specification asks.
// Its own 429 handling waits 1500 ms by default and reads a missing Retry-After as 0 s (Number(null)),
// retrying at once and without end; its 403 is an unnamed PrismicError; it sets no time limit. So here:
// 429 waits the Retry-After delay (seconds or an HTTP date; 1000 ms when absent), at most 3 attempts;
// 403 is 'forbidden', 5xx and network failures 'unavailable'; every request has a time limit. The 429 is
// never handed to the client, so its own retry loop never runs.
import type { FetchLike, RequestInitLike, ResponseLike } from '@prismicio/client';
import { ContentError } from '../errors';

/** Specification section 9: the rate-limit retry's default delay and the attempt cap. */
export const RATE_LIMIT_DEFAULT_RETRY_MS = 1000;
export const MAX_ATTEMPTS = 3;
/** A Retry-After longer than this is not waited for inside a job: the attempt fails and pages use the last copy. */
export const LONGEST_RETRY_AFTER_MS = 60_000;

/**
 * The delay a Retry-After header asks for (delta-seconds or an HTTP date), or the default when absent.
 * @example retryAfterMs('2', Date.now()) // 2000; retryAfterMs(null, Date.now()) // 1000
 */
export function retryAfterMs(header: string | null, now: number): number {
  const text = header?.trim();
  if (!text) return RATE_LIMIT_DEFAULT_RETRY_MS;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? RATE_LIMIT_DEFAULT_RETRY_MS : Math.max(0, at - now);
}

/** How the source waits: after a 429, and between a queue's attempts. A test passes one on a fake clock. */
export type Pause = (ms: number, signal: AbortSignal) => Promise<void>;

/** Waits `ms` on a real timer (which does not keep the process alive); rejects when `signal` aborts. */
export const pause: Pause = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    timer.unref?.();
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

/**
 * Wraps `fetchImpl` for createClient({ fetch }). `closed` aborts every request and wait (close()).
 * @example createClient(endpoint, { fetch: createPrismicFetch(fetch, { timeoutMs: 10_000, closed }) })
 */
export function createPrismicFetch(
  fetchImpl: typeof fetch,
  rules: { timeoutMs: number; closed: AbortSignal; pause?: Pause },
): FetchLike {
  const wait = rules.pause ?? pause;
  return async (input: string, init?: RequestInitLike): Promise<ResponseLike> => {
    const where = new URL(input).pathname;
    for (let attempt = 1; ; attempt++) {
      const signals = [rules.closed, AbortSignal.timeout(rules.timeoutMs)];
      if (init?.signal) signals.push(init.signal as AbortSignal);
      let response: Response;
      try {
        response = await fetchImpl(input, { ...init, signal: AbortSignal.any(signals) } as RequestInit);
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        const message = rules.closed.aborted
          ? 'the content source was closed'
          : timedOut
            ? `Prismic did not answer ${where} within ${rules.timeoutMs} ms`
            : `Prismic could not be reached (${where}): ${error instanceof Error ? error.message : String(error)}`;
        throw new ContentError('unavailable', message, { cause: error });
      }
      if (response.status === 429) {
        const delay = retryAfterMs(response.headers.get('retry-after'), Date.now());
        await response.body?.cancel().catch(() => undefined);
        if (attempt >= MAX_ATTEMPTS || delay > LONGEST_RETRY_AFTER_MS)
          throw new ContentError('rate-limited', `Prismic rate-limited ${where} (${attempt} attempts)`, {
            status: 429,
          });
        await wait(delay, rules.closed).catch((reason: unknown) => {
          throw new ContentError('unavailable', 'the content source was closed', { cause: reason });
        });
        continue;
      }
      if (response.status === 403) {
        await response.body?.cancel().catch(() => undefined);
        throw new ContentError('forbidden', `Prismic refused ${where} (403): check PRISMIC_ACCESS_TOKEN`, {
          status: 403,
        });
      }
      if (response.status >= 500) {
        await response.body?.cancel().catch(() => undefined);
        throw new ContentError('unavailable', `Prismic answered ${response.status} for ${where}`, {
          status: response.status,
        });
      }
      return response;
    }
  };
}
