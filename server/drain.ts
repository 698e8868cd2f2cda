// Draining on SIGTERM (decision 072), so a rolling deploy loses no request: readiness turns 503 at once
// while the instance keeps serving for DRAIN_DELAY_SECONDS (the load balancer's health check takes it
// out meanwhile); then it stops accepting (the listening socket closes, so a new connection is refused
// by the kernel and the balancer tries another instance), finishes what is in flight within
// DRAIN_TIMEOUT_SECONDS, and closes. From SIGTERM on every answer says `Connection: close`, so no
// keep-alive connection is left idle to be cut; a request that still arrives on an open connection
// after the instance stopped accepting is refused whole, 503 with Retry-After, never reset.
import type http from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { BUSY_RETRY_AFTER_SECONDS } from './api-error';

/**
 * starting: not yet ready; serving: ready; draining: SIGTERM heard, still serving; closing: no longer
 * accepting, finishing what is in flight.
 */
export type ServingPhase = 'starting' | 'serving' | 'draining' | 'closing';

export interface ServingState {
  readonly phase: ServingPhase;
  /** Start-up has finished: readiness may answer 200. */
  ready(): void;
  /** SIGTERM: readiness answers 503 from now on, and every answer closes its connection. */
  drain(): void;
  /** The instance stops accepting: requests on connections still open are refused. */
  close(): void;
}

/** @example const serving = createServingState(); …; serving.ready() */
export function createServingState(): ServingState {
  let phase: ServingPhase = 'starting';
  const order: ServingPhase[] = ['starting', 'serving', 'draining', 'closing'];
  // A phase never goes back: a late ready() after a stop began must not make the instance ready again.
  const moveTo = (next: ServingPhase) => {
    if (order.indexOf(next) > order.indexOf(phase)) phase = next;
  };
  return {
    get phase() {
      return phase;
    },
    ready: () => moveTo('serving'),
    drain: () => moveTo('draining'),
    close: () => moveTo('closing'),
  };
}

/**
 * Every answer from SIGTERM on closes its connection; once the instance stopped accepting, a new
 * request is refused by `refuse` (the shop's JSON or busy page), with Retry-After.
 * @example app.use(drainingAnswers(serving, (c) => apiError(c, 503, 'SERVICE_BUSY', '…')))
 */
export function drainingAnswers(
  serving: Pick<ServingState, 'phase'>,
  refuse: (c: Context) => Promise<Response> | Response,
): MiddlewareHandler {
  return async (c, next) => {
    if (serving.phase === 'closing') {
      const refused = await refuse(c);
      const answer = new Response(refused.body, refused);
      answer.headers.set('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      answer.headers.set('Cache-Control', 'no-store');
      answer.headers.set('Connection', 'close');
      return answer;
    }
    await next();
    if (serving.phase !== 'serving' && serving.phase !== 'starting') c.header('Connection', 'close');
  };
}

/** How often a closing server closes the connections that have become idle. */
const IDLE_SWEEP_MS = 250;

/**
 * Stops the HTTP server from accepting, closes its idle connections, and waits up to `timeoutMs` for the
 * requests in flight; whatever is still open then is closed. Answers whether everything finished.
 * @example const finished = await closeServerGently(server, 20_000)
 */
export async function closeServerGently(server: http.Server, timeoutMs: number): Promise<boolean> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Node closes the connections idle at close() only; one whose answer ends later would stay open
  // until its keep-alive timeout. The shop's answers say `Connection: close` by then; this catches
  // any other (an answer made before the application).
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    closed.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  clearInterval(sweep);
  if (!finished) {
    server.closeAllConnections();
    await closed;
  }
  return finished;
}
