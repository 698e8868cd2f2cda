// The draw API as a load generator calls it: POST /api/v1/gachas/{id}/draws over keep-alive HTTP,
// bounded concurrency, one answer (or connection error) recorded per request. Shared by the storm
// test (tests/storm) and the draw benchmark's worker process (bench/draw/load-worker.ts).
import http from 'node:http';

export interface DrawCall {
  /** Which instance (index into the origins) the request goes to. */
  instance: number;
  gachaId: string;
  count: number;
  key: string;
  memberId: string;
  bearer: string;
}

export interface DrawReply {
  /** HTTP status; 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  /** The parsed JSON body, when there was one. */
  body: DrawBody | null;
  /** The connection error (ECONNREFUSED, ECONNRESET, socket hang up, timeout). */
  error?: string;
  /** The Retry-After header, when the answer had one (a 503 or 429 says when to come back). */
  retryAfter?: string;
  /** Milliseconds from sending to the end of the answer (or the error). */
  ms: number;
  /** performance.now() when the answer arrived (for time-to-sell-out). */
  at: number;
  /**
   * True when the first try died on a kept-alive socket the server had just closed (ECONNRESET or
   * EPIPE before any answer) and the request was sent once more, with the same key, on a new
   * connection, as Node's documentation advises (`request.reusedSocket`). The key makes it safe.
   */
  resent?: boolean;
}

export interface DrawBody {
  id?: string;
  gachaId?: string;
  count?: number;
  cost?: number;
  lastOne?: boolean;
  /** The キリ番 numbers the draw won (decision 027). */
  kiriban?: number[];
  items?: {
    position?: number | null;
    isLastOne?: boolean;
    kiriban?: number | null;
    tierLabel?: string;
    [key: string]: unknown;
  }[];
  balance?: { paid: number; free: number };
  replay?: boolean;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

export interface DrawClient {
  /**
   * Sends one draw request. `abandonAfterMs` hangs up that long after the request was sent, as a
   * phone losing its connection would: the server still runs the draw, the answer is lost.
   */
  post(call: DrawCall, options?: { abandonAfterMs?: number }): Promise<DrawReply>;
  /** Closes every kept-alive socket. */
  close(): void;
}

/** @example const client = createDrawClient(cluster.urls, { maxSockets: 64 }) */
export function createDrawClient(
  origins: string[],
  options: { maxSockets?: number; timeoutMs?: number } = {},
): DrawClient {
  const agents = origins.map(() => new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 }));
  const targets = origins.map((origin) => new URL(origin));
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    post(call, options = {}) {
      const target = targets[call.instance % targets.length]!;
      const body = JSON.stringify({ count: call.count });
      const started = performance.now();
      const attempt = (resent: boolean) =>
        new Promise<DrawReply>((resolve) => {
          let settled = false;
          const finish = (reply: Omit<DrawReply, 'ms' | 'at'>) => {
            if (settled) return;
            settled = true;
            const at = performance.now();
            resolve({ ...reply, ms: at - started, at, ...(resent ? { resent } : {}) });
          };
          const request = http.request(
            {
              // The resend goes on a connection of its own: another pooled socket may be just as stale.
              agent: resent ? false : agents[call.instance % agents.length],
              host: target.hostname,
              port: target.port,
              method: 'POST',
              path: `/api/v1/gachas/${encodeURIComponent(call.gachaId)}/draws`,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                accept: 'application/json',
                authorization: `Bearer ${call.bearer}`,
                'idempotency-key': call.key,
              },
              timeout: timeoutMs,
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let parsed: DrawBody | null = null;
                try {
                  parsed = text ? (JSON.parse(text) as DrawBody) : null;
                } catch {
                  parsed = null;
                }
                const retryAfter = response.headers['retry-after'];
                finish({
                  status: response.statusCode ?? 0,
                  body: parsed,
                  ...(retryAfter ? { retryAfter } : {}),
                  ...(parsed === null && text ? { error: `non-JSON body: ${text.slice(0, 200)}` } : {}),
                });
              });
              response.on('error', (error) =>
                finish({ status: 0, body: null, error: (error as NodeJS.ErrnoException).code ?? error.message }),
              );
              response.on('aborted', () => finish({ status: 0, body: null, error: 'response aborted' }));
            },
          );
          request.on('timeout', () => request.destroy(new Error('timeout')));
          if (options.abandonAfterMs !== undefined) {
            request.on('finish', () =>
              setTimeout(() => {
                if (settled) return;
                finish({ status: 0, body: null, error: 'abandoned by the client' });
                request.destroy();
              }, options.abandonAfterMs),
            );
          }
          request.on('error', (error) => {
            const code = (error as NodeJS.ErrnoException).code ?? error.message;
            if (!settled && !resent && request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
              settled = true;
              resolve(attempt(true));
              return;
            }
            finish({ status: 0, body: null, error: code });
          });
          request.end(body);
        });
      return attempt(false);
    },
    close() {
      for (const agent of agents) agent.destroy();
    },
  };
}

/**
 * Runs `items` through `worker` with at most `concurrency` in flight; results in the items' order.
 * @example const replies = await runBounded(calls, 64, (call) => client.post(call))
 */
export async function runBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      for (;;) {
        const index = next++;
        if (index >= items.length) return;
        results[index] = await worker(items[index]!, index);
      }
    }),
  );
  return results;
}

/** A small deterministic generator (the demo art's mulberry32) so a storm's mix can be replayed. */
export { mulberry32 as seededRandom } from '#scripts/generate-demo-art';

export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/** p50, p90, p99 and max of some latencies (ms, two decimals). @example latencySummary([3, 1, 2]).p50 === 2 */
export function latencySummary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
}

/** Status and error-code counts of a set of replies: { '201': 9000, '409 SOLD_OUT': 2000, '0 ECONNRESET': 3 }. */
export function tally(replies: readonly DrawReply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) {
    const label =
      reply.status === 0
        ? `0 ${reply.error ?? 'no answer'}`
        : reply.body?.error
          ? `${reply.status} ${reply.body.error.code}`
          : String(reply.status);
    counts[label] = (counts[label] ?? 0) + 1;
    if (reply.resent)
      counts['(resent after a stale kept-alive socket)'] =
        (counts['(resent after a stale kept-alive socket)'] ?? 0) + 1;
  }
  return counts;
}
