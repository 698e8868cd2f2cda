// A small closed-loop HTTP load generator: C concurrent keep-alive clients for D seconds, latencies kept.
import http from 'node:http';

export interface LoadResult {
  path: string;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/** @example await loadTest({ origin: 'http://localhost:3000', path: '/', concurrency: 16, seconds: 10 }) */
export async function loadTest(options: {
  origin: string;
  path: string;
  concurrency: number;
  seconds: number;
  /** More request headers, e.g. a member's session cookie. */
  headers?: Record<string, string>;
  /** Headers per client (client i sends clientHeaders[i % length]): each client a different member. */
  clientHeaders?: Record<string, string>[];
}): Promise<LoadResult> {
  const url = new URL(options.path, options.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const once = (client: number) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          // What a phone's browser sends: the page comes compressed, as members receive it.
          headers: {
            accept: 'text/html',
            'accept-encoding': 'br, gzip',
            ...options.headers,
            ...options.clientHeaders?.[client % options.clientHeaders.length],
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            latencies.push(performance.now() - started);
            statuses[String(response.statusCode)] = (statuses[String(response.statusCode)] ?? 0) + 1;
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors++;
        resolve();
      });
    });
  const began = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, client) => {
      while (performance.now() < deadline) await once(client);
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    path: options.path,
    requests: latencies.length,
    errors,
    statuses,
    requestsPerSecond: round(latencies.length / elapsed),
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? 0),
    },
  };
}

/** loadTest in its own process (the server under test keeps its event loop to itself). */
export function loadTestInWorker(options: Parameters<typeof loadTest>[0]): Promise<LoadResult> {
  return import('node:child_process').then(
    ({ fork }) =>
      new Promise<LoadResult>((resolve, reject) => {
        const child = fork(new URL('./load-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
        child.once('message', (result) => resolve(result as LoadResult));
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`)),
        );
        child.send(options);
      }),
  );
}
