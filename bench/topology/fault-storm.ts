// A draw storm that goes on while faults happen, as members' phones see it: each member's app sends a draw
// with its Idempotency-Key and, when told to come back (503 with Retry-After) or left without an answer,
// sends the same request again until it gets an answer that stands (a draw, or a refusal). Between faults
// the storm runs undisturbed, so each fault's cost is measured alone: the longest time in which no draw
// succeeded, and how many requests were told to come back. Shared by the failover test (tests/topology)
// and the topology benchmark (bench/topology).
import { seededRandom, type DrawCall, type DrawClient, type DrawReply } from '../draw/client';
import type { Topology } from '#scripts/topology/topology';

/** A request that must be sent again with the same key: 502–504 (the load balancer) or no answer at all. */
export const comeBackLater = (reply: DrawReply) =>
  reply.status === 0 || reply.status === 502 || reply.status === 503 || reply.status === 504;

/** One request's story: every attempt, the last of which stands (unless the storm gave up on it). */
export interface Settled {
  call: DrawCall;
  attempts: DrawReply[];
  /** The standing answer, or undefined when it was still being told to come back at `giveUpAfterMs`. */
  final?: DrawReply;
}

export interface Fault {
  name: string;
  /** Causes the fault and repairs it; resolves once the part is back (or the failover is done). */
  run(): Promise<void>;
}

export interface FaultReport {
  name: string;
  /** Milliseconds from the storm's start. */
  startedMs: number;
  /** How long run() took (the fault and its repair). */
  tookMs: number;
  /** The longest span, from the fault's start to `observeMs` after its repair, in which no draw succeeded. */
  unavailableMs: number;
  /** Answers in that window that said come back later: 503 with Retry-After, by origin. */
  comeBack: number;
  /** Of those, the ones without Retry-After, or that were not a 503 (a bare 502/504, no answer at all). */
  improper: number;
  /** Draws that succeeded in the window. */
  drawn: number;
}

export interface FaultStormOptions {
  client: DrawClient;
  /** The next request to send (a new key each time), or null when there is nothing more to send. */
  nextCall: () => DrawCall | null;
  /** Members drawing at once: each sends its next draw once the last one is answered (and `thinkMs` passed). */
  inFlight: number;
  /** How long a member waits between an answer and their next draw (0: at once, a flat-out storm). */
  thinkMs?: number;
  faults: Fault[];
  /** Undisturbed storm before the first fault (the baseline). */
  warmUpMs: number;
  /** After each fault's repair, how long the storm runs undisturbed before the next one. */
  observeMs: number;
  /** Waits before a request is sent again; short, so an outage is measured to a fraction of a second. */
  retryDelayMs?: number;
  /** A request still told to come back after this long is given up (and reported: the test fails it). */
  giveUpAfterMs: number;
}

export interface FaultStormResult {
  settled: Settled[];
  faults: FaultReport[];
  /** The longest span without a successful draw during the warm-up: the storm's own rhythm. */
  baselineGapMs: number;
  /** Successful draws per second during the warm-up. */
  baselineRate: number;
  seconds: number;
}

/**
 * The faults of issue 31, in order, on the topology of docs/deploy.md; each resolves once the part is back.
 * @example await runFaultStorm({ …, faults: topologyFaults(topology) })
 */
export function topologyFaults(top: Topology): Fault[] {
  let failed = '';
  const restartInTurn = async () => {
    for (const index of [0, 1, 2]) {
      await top.killShop(index, 'SIGTERM');
      await top.startShop(index);
    }
  };
  return [
    {
      name: 'a shop instance killed (SIGKILL) and started again',
      run: async () => {
        await top.killShop(1, 'SIGKILL');
        await top.startShop(1);
      },
    },
    { name: 'pgbouncer restarted', run: () => top.restartPgbouncer() },
    {
      name: 'planned failover: the standby promoted, the old primary follows it',
      run: async () => void (await top.failover()),
    },
    {
      name: 'the primary fails (killed, no shutdown): the standby promoted',
      run: async () => void (failed = (await top.failPrimary()).from),
    },
    { name: 'the failed node back: it follows as the synchronous standby', run: () => top.startNode(failed) },
    { name: 'rolling restart: each instance in turn (SIGTERM, drain, start)', run: restartInTurn },
  ];
}

/**
 * The storm's requests: the members in turn, one lot each (one in twenty: ten), a fresh key each time.
 * @example runFaultStorm({ …, nextCall: memberDraws(members, 'pack-1', 'storm', 31) })
 */
export function memberDraws(
  members: readonly { id: string; bearer: string }[],
  gachaId: string,
  keyPrefix: string,
  seed: number,
): () => DrawCall {
  const random = seededRandom(seed);
  let sent = 0;
  return () => {
    const member = members[sent % members.length]!;
    sent += 1;
    return {
      instance: 0,
      gachaId,
      count: random() < 0.05 ? 10 : 1,
      key: `${keyPrefix}-${sent}`,
      memberId: member.id,
      bearer: member.bearer,
    };
  };
}

const drew = (reply: DrawReply) => reply.status === 201 || reply.status === 200;

/** The longest span within [from, to] with no success in `times` (sorted), ends included. */
function longestGap(times: readonly number[], from: number, to: number): number {
  let last = from;
  let longest = 0;
  for (const t of times) {
    if (t < from) continue;
    if (t > to) break;
    longest = Math.max(longest, t - last);
    last = t;
  }
  return Math.max(longest, to - last);
}

/**
 * Runs the storm, the faults one after another, and the storm's end; answers every request's story
 * and each fault's cost.
 * @example const result = await runFaultStorm({ client, nextCall, inFlight: 12, faults, warmUpMs: 3000, observeMs: 4000, giveUpAfterMs: 120_000 })
 */
export async function runFaultStorm(options: FaultStormOptions): Promise<FaultStormResult> {
  const retryDelayMs = options.retryDelayMs ?? 200;
  const thinkMs = options.thinkMs ?? 0;
  const started = performance.now();
  const settled: Settled[] = [];
  let sending = true;

  const settle = async (call: DrawCall): Promise<Settled> => {
    const attempts: DrawReply[] = [];
    const first = performance.now();
    for (;;) {
      const reply = await options.client.post(call);
      attempts.push(reply);
      if (!comeBackLater(reply)) return { call, attempts, final: reply };
      if (performance.now() - first > options.giveUpAfterMs) return { call, attempts };
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * (0.5 + Math.random())));
    }
  };
  const workers = Array.from({ length: options.inFlight }, async () => {
    while (sending) {
      const call = options.nextCall();
      if (!call) return;
      settled.push(await settle(call));
      if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())));
    }
  });

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const windows: { fault: Fault; from: number; repaired: number }[] = [];
  try {
    await pause(options.warmUpMs);
    for (const fault of options.faults) {
      const from = performance.now();
      await fault.run();
      windows.push({ fault, from, repaired: performance.now() });
      await pause(options.observeMs);
    }
  } finally {
    sending = false;
    await Promise.all(workers);
  }

  const attempts = settled.flatMap((s) => s.attempts);
  const successes = attempts
    .filter(drew)
    .map((a) => a.at)
    .sort((a, b) => a - b);
  const warmUpEnd = started + options.warmUpMs;
  const faults = windows.map(({ fault, from, repaired }) => {
    const to = repaired + options.observeMs;
    const inWindow = attempts.filter((a) => a.at >= from && a.at <= to);
    const told = inWindow.filter(comeBackLater);
    return {
      name: fault.name,
      startedMs: Math.round(from - started),
      tookMs: Math.round(repaired - from),
      unavailableMs: Math.round(longestGap(successes, from, to)),
      comeBack: told.length,
      improper: told.filter((a) => a.status !== 503 || !a.retryAfter).length,
      drawn: inWindow.filter(drew).length,
    };
  });
  return {
    settled,
    faults,
    baselineGapMs: Math.round(longestGap(successes, started + 500, warmUpEnd)),
    baselineRate: successes.filter((t) => t <= warmUpEnd).length / (options.warmUpMs / 1000),
    seconds: (performance.now() - started) / 1000,
  };
}
