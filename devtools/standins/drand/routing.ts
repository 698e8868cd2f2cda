// The drand stand-in's HTTP API: the v1 routes of drand's HTTP relay for one chain, which is also the
// relay's default chain (`/info`, `/public/…` without a hash). Answers, statuses and cache headers follow
// the relay (docs/research/2026-11-30-drand-beacon.md): 425 for a round beyond the next one, the next round
// held until it is public, 500 for a round whose time has passed but that the network has not produced.
import { Hono, type Context } from 'hono';
import { publishedRound, roundDueAt, type DrandChain, type DrandMode } from './chain';

/** One request the stand-in answered. */
export interface DrandStandinCall {
  path: string;
  status: number;
}

export interface DrandState {
  chain: DrandChain;
  mode: DrandMode;
  /** The stand-in's clock (Unix milliseconds). */
  now: () => number;
  /** Real milliseconds a request for the next round is held before the stand-in gives up with 500. */
  holdMs: number;
  calls: DrandStandinCall[];
  /** Requests held now, waiting for their round. */
  held: number;
  /** Aborted by close(): held requests stop waiting. */
  closing: AbortController;
}

/** How often a held request looks again (real milliseconds). */
const HOLD_POLL_MS = 20;
const MAX_ROUND = 2n ** 64n - 1n;
const ROUTES = ['/chains', '/info', '/health', '/public/latest', '/public/{round}'];

const published = (state: DrandState) => publishedRound(state.chain.info, state.mode, state.now());
const failure = (c: Context, status: 400 | 404 | 425 | 500 | 503, message: string, cacheControl?: string): Response => {
  if (cacheControl) c.header('Cache-Control', cacheControl);
  c.header('X-Content-Type-Options', 'nosniff');
  return c.text(`${message}\n`, status);
};

/** The chain a path names: the stand-in's own (by its hash, or no hash: the default chain), else null. */
function chainNamed(state: DrandState, c: Context): 'ours' | 'unknown' | 'not-a-hash' {
  const hash = c.req.param('chainHash');
  if (hash === undefined) return 'ours';
  if (!/^[0-9A-Fa-f]{64}$/.test(hash)) return 'not-a-hash';
  return hash.toLowerCase() === state.chain.info.hash ? 'ours' : 'unknown';
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Holds a request for `round` until it is public (true) or the hold runs out or the stand-in closes (false). */
async function heldUntilPublished(state: DrandState, round: number): Promise<boolean> {
  const until = performance.now() + state.holdMs;
  state.held++;
  try {
    while (!state.closing.signal.aborted) {
      if (published(state) >= round) return true;
      const left = until - performance.now();
      if (left <= 0) return false;
      await pause(Math.min(HOLD_POLL_MS, left), state.closing.signal);
    }
    return published(state) >= round;
  } finally {
    state.held--;
  }
}

function latest(state: DrandState, c: Context): Response {
  const round = published(state);
  if (round === 0) return failure(c, 500, 'Failed to get beacon');
  const { genesis_time: genesis, period } = state.chain.info;
  const nextTime = genesis + roundDueAt(state.chain.info, state.now()) * period;
  const maxAge = Math.max(0, nextTime - Math.floor(state.now() / 1000));
  c.header('Cache-Control', `public, must-revalidate, max-age=${maxAge}`);
  return c.json(state.chain.beacon(round, state.mode.wrong));
}

async function numbered(state: DrandState, c: Context): Promise<Response> {
  const text = c.req.param('round') ?? '';
  if (!/^\d+$/.test(text)) return failure(c, 404, ROUTES.join('\n'));
  const asked = BigInt(text);
  if (asked > MAX_ROUND) return failure(c, 400, `Failed to parse round. Err: value out of range`);
  if (asked === 0n) return latest(state, c);
  const next = roundDueAt(state.chain.info, state.now()) + 1;
  if (asked > BigInt(next)) return failure(c, 425, 'Requested future beacon', 'must-revalidate, no-cache, max-age=0');
  const round = Number(asked);
  const ready =
    published(state) >= round || (round === published(state) + 1 && (await heldUntilPublished(state, round)));
  if (!ready) return failure(c, 500, 'Failed to get beacon', 'must-revalidate, no-cache, max-age=0');
  c.header('Cache-Control', 'public, max-age=604800, immutable');
  return c.json(state.chain.beacon(round, state.mode.wrong));
}

function health(state: DrandState, c: Context): Response {
  const current = published(state);
  const expected = roundDueAt(state.chain.info, state.now());
  c.header('Cache-Control', 'no-cache');
  return c.json({ current, expected }, current + 1 >= expected ? 200 : 503);
}

/** The stand-in's HTTP app. */
export function createDrandApp(state: DrandState): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('Server', 'drand-standin');
    c.header('Access-Control-Allow-Origin', '*');
    state.calls.push({ path: c.req.path, status: c.res.status });
  });
  app.get('/chains', (c) => c.json([state.chain.info.hash]));
  for (const prefix of ['', '/:chainHash']) {
    app.get(`${prefix}/info`, (c) => {
      const chain = chainNamed(state, c);
      if (chain === 'not-a-hash') return failure(c, 404, ROUTES.join('\n'));
      return chain === 'ours' ? c.json(state.chain.info) : failure(c, 500, 'Failed to get ChainInfo');
    });
    app.get(`${prefix}/health`, (c) => {
      const chain = chainNamed(state, c);
      if (chain === 'not-a-hash') return failure(c, 404, ROUTES.join('\n'));
      return chain === 'ours' ? health(state, c) : failure(c, 500, 'Failed to get latest beacon for health');
    });
    app.get(`${prefix}/public/latest`, (c) => {
      const chain = chainNamed(state, c);
      if (chain === 'not-a-hash') return failure(c, 404, ROUTES.join('\n'));
      return chain === 'ours' ? latest(state, c) : failure(c, 500, 'Failed to get beacon');
    });
    app.get(`${prefix}/public/:round`, (c): Response | Promise<Response> => {
      const chain = chainNamed(state, c);
      if (chain === 'not-a-hash') return failure(c, 404, ROUTES.join('\n'));
      return chain === 'ours' ? numbered(state, c) : failure(c, 400, 'unknown chain hash');
    });
  }
  app.notFound((c) => failure(c, 404, ROUTES.join('\n')));
  return app;
}
