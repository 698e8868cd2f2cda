// The waiting room's members, in a process of their own (forked by bench/waiting-room/index.ts) so the load
// does not share a shop's event loop. Open loop: each member arrives at a seeded random moment within the
// arrival window and joins the queue through the JSON API (bearer session), then reads their place as the
// page does — at the start, then again after a pause that grows with their estimate (nextReadSeconds: 3–30 s,
// jittered) —
// and, once admitted, draws one lot at a time up to the lots left. A share of them behave like bots: they
// try to draw before their turn, and once more after reaching the cap; those refusals are counted, never a
// lot. A member is served when they have drawn up to the cap, or the queue answers done or closed (sold out).
import http from 'node:http';
import { nextReadSeconds } from '#modules/waitingroom/browser';
import { latencySummary, seededRandom } from '../draw/client';

export interface MembersSpec {
  /** The shop's origins: haproxy's one, or two instances the members alternate between. */
  origins: string[];
  gachaId: string;
  members: { id: string; bearer: string }[];
  /** Milliseconds since the epoch: the sale's start (the order's draw). */
  startsAt: number;
  arrivalSeconds: number;
  /** Seconds between the last arrival and the start (the time the shop has to take every join before it). */
  leadSeconds: number;
  /** Lots a member may draw (the pack's cap). */
  cap: number;
  /** Share of members who also try a draw before their turn and after the cap. */
  botShare: number;
  maxSockets: number;
  seed: number;
}

type Latency = ReturnType<typeof latencySummary>;

export interface MembersResult {
  members: number;
  served: number;
  unserved: string[];
  /** From the first arrival to the last member served. */
  servedAllSeconds: number;
  /** From the start (the order's draw) to the last member served. */
  servedAllAfterStartSeconds: number;
  /** Members by their final state: drew to the cap, or found the pack sold out / their window over. */
  outcomes: Record<string, number>;
  requests: Record<'join' | 'status' | 'draw', { count: number; statuses: Record<string, number>; latencyMs: Latency }>;
  allRequestsLatencyMs: Latency;
  /** The bots' extra draws: refused with these codes (never a lot). */
  botDraws: Record<string, number>;
  /** Members admitted, in the order they first saw their window (member ids): checked against the drawn order. */
  joinedAtMs: Record<string, number>;
}

interface Reply {
  status: number;
  body: Record<string, unknown> | null;
  ms: number;
}

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function runMembers(spec: MembersSpec): Promise<MembersResult> {
  const random = seededRandom(spec.seed);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.maxSockets });
  const latencies: Record<'join' | 'status' | 'draw', number[]> = { join: [], status: [], draw: [] };
  const statuses: Record<'join' | 'status' | 'draw', Record<string, number>> = { join: {}, status: {}, draw: {} };
  const botDraws: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const joinedAtMs: Record<string, number> = {};
  const unserved: string[] = [];
  let turn = 0;

  function call(
    kind: 'join' | 'status' | 'draw',
    method: string,
    path: string,
    bearer: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const origin = new URL(spec.origins[turn++ % spec.origins.length]!);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const asked = performance.now();
    return new Promise((resolve) => {
      const request = http.request(
        {
          agent,
          method,
          host: origin.hostname,
          port: origin.port,
          path,
          headers: {
            authorization: `Bearer ${bearer}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const ms = performance.now() - asked;
            let parsed: Record<string, unknown> | null = null;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
            } catch {
              parsed = null;
            }
            const status = response.statusCode ?? 0;
            const code = (parsed?.error as { code?: string } | undefined)?.code;
            const label = code ? `${status} ${code}` : String(status);
            statuses[kind][label] = (statuses[kind][label] ?? 0) + 1;
            latencies[kind].push(ms);
            resolve({ status, body: parsed, ms });
          });
          response.on('error', () => resolve({ status: 0, body: null, ms: performance.now() - asked }));
        },
      );
      request.on('error', (error) => {
        statuses[kind][`0 ${error.message}`] = (statuses[kind][`0 ${error.message}`] ?? 0) + 1;
        resolve({ status: 0, body: null, ms: performance.now() - asked });
      });
      if (payload) request.write(payload);
      request.end();
    });
  }

  const roomPath = `/api/v1/gachas/${encodeURIComponent(spec.gachaId)}/waiting-room`;
  const drawPath = `/api/v1/gachas/${encodeURIComponent(spec.gachaId)}/draws`;
  let keys = 0;
  const draw = (bearer: string) =>
    call('draw', 'POST', drawPath, bearer, { count: 1 }, { 'idempotency-key': `wr-${spec.seed}-${++keys}` });

  const arrivalStart = spec.startsAt - (spec.leadSeconds + spec.arrivalSeconds) * 1000;
  let lastServed = Date.now();
  const firstArrival = { at: Number.POSITIVE_INFINITY };

  await Promise.all(
    spec.members.map(async (member) => {
      const bot = random() < spec.botShare;
      const arriveAt = arrivalStart + random() * spec.arrivalSeconds * 1000;
      const jitter = random();
      await sleep(arriveAt - Date.now());
      firstArrival.at = Math.min(firstArrival.at, Date.now());
      let joined: Reply;
      for (let attempt = 0; ; attempt++) {
        joined = await call('join', 'POST', roomPath, member.bearer, {});
        if (joined.status === 200 || attempt >= 5) break;
        await sleep(500 + jitter * 1000);
      }
      if (joined.status !== 200) {
        unserved.push(`${member.id}: join ${joined.status}`);
        return;
      }
      joinedAtMs[member.id] = Date.now();
      let room = joined.body as { state: string; estimateSeconds: number | null; lotsLeft: number | null };
      let drawn = 0;
      let triedEarly = false;
      for (;;) {
        if (room.state === 'registered') {
          // The page reads again at the start (the order is drawn by the first read after it).
          await sleep(spec.startsAt - Date.now() + jitter * 2000);
        } else if (room.state === 'waiting') {
          if (bot && !triedEarly) {
            triedEarly = true;
            const early = await draw(member.bearer);
            const code = (early.body?.error as { code?: string } | undefined)?.code ?? String(early.status);
            botDraws[`early ${code}`] = (botDraws[`early ${code}`] ?? 0) + 1;
          }
          // As the page does: often near the front, rarely far back.
          await sleep(nextReadSeconds(room) * 1000 * (0.75 + jitter * 0.5));
        } else if (room.state === 'admitted') {
          const left = room.lotsLeft ?? 0;
          if (left <= 0) break;
          const reply = await draw(member.bearer);
          if (reply.status === 201) drawn += 1;
          else if (reply.status === 409 || reply.status === 422 || reply.status === 403) {
            // SOLD_OUT, a window just closed, or the busy answer: read the place again.
          } else await sleep(500);
          if (drawn >= spec.cap) break;
        } else break;
        const next = await call('status', 'GET', roomPath, member.bearer);
        if (next.status === 200) room = next.body as typeof room;
        else await sleep(1000);
      }
      if (bot && drawn >= spec.cap) {
        const extra = await draw(member.bearer);
        const code = (extra.body?.error as { code?: string } | undefined)?.code ?? String(extra.status);
        botDraws[`past the cap ${code}`] = (botDraws[`past the cap ${code}`] ?? 0) + 1;
      }
      const outcome = drawn >= spec.cap ? 'drew to the cap' : room.state;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      lastServed = Math.max(lastServed, Date.now());
    }),
  );
  agent.destroy();
  const all = [...latencies.join, ...latencies.status, ...latencies.draw];
  const summary = (kind: 'join' | 'status' | 'draw') => ({
    count: latencies[kind].length,
    statuses: statuses[kind],
    latencyMs: latencySummary(latencies[kind]),
  });
  return {
    members: spec.members.length,
    served: spec.members.length - unserved.length,
    unserved: unserved.slice(0, 20),
    servedAllSeconds: round((lastServed - firstArrival.at) / 1000),
    servedAllAfterStartSeconds: round((lastServed - spec.startsAt) / 1000),
    outcomes,
    requests: { join: summary('join'), status: summary('status'), draw: summary('draw') },
    allRequestsLatencyMs: latencySummary(all),
    botDraws,
    joinedAtMs,
  };
}

// Forked: one spec in, one result out.
process.once('message', (spec: MembersSpec) => {
  runMembers(spec)
    .then((result) => process.send!(result, () => process.exit(0)))
    .catch((error: unknown) => {
      process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
      process.exit(1);
    });
});
