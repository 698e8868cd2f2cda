// The draw benchmark's load generator, in its own process (forked by bench/draw/index.ts) so it does
// not share the servers' event loops. Two kinds of phase:
//   timed: C closed-loop clients for S seconds, each request a random member, a fresh key, k lots;
//   list:  a fixed list of requests (the sell-out), at most C in flight, until all are answered.
import {
  createDrawClient,
  latencySummary,
  runBounded,
  seededRandom,
  tally,
  type DrawCall,
  type DrawReply,
} from './client';

export interface BenchMember {
  id: string;
  bearer: string;
}

export type PhaseSpec =
  | {
      kind: 'timed';
      origins: string[];
      members: BenchMember[];
      gachaId: string;
      count: number;
      concurrency: number;
      seconds: number;
      keyPrefix: string;
      seed: number;
    }
  | {
      kind: 'list';
      origins: string[];
      members: BenchMember[];
      gachaId: string;
      counts: number[];
      concurrency: number;
      keyPrefix: string;
    };

export interface PhaseResult {
  requests: number;
  /** Completed draws (201). */
  draws: number;
  lots: number;
  elapsedSeconds: number;
  requestsPerSecond: number;
  drawsPerSecond: number;
  lotsPerSecond: number;
  /** Latency of every answered request, and of the completed draws alone. */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  drawLatencyMs: { p50: number; p90: number; p99: number; max: number };
  statuses: Record<string, number>;
  /** 5xx answers and requests without an answer. */
  failures: number;
  failureSamples: string[];
  /** list phases: seconds from the first request to the answer that carried the ラストワン賞. */
  soldOutAfterSeconds?: number | null;
  lastOneAnswers?: number;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const summary = latencySummary;

function summarise(calls: DrawCall[], replies: DrawReply[], began: number, ended: number): PhaseResult {
  const elapsed = (ended - began) / 1000;
  const completed = replies.filter((r) => r.status === 201);
  const lots = completed.reduce((sum, r) => sum + (r.body?.count ?? 0), 0);
  const failures = replies.flatMap((r, i) =>
    r.status === 0 || r.status >= 500
      ? [`${calls[i]?.key} → ${r.status} ${r.error ?? JSON.stringify(r.body).slice(0, 200)}`]
      : [],
  );
  return {
    requests: replies.length,
    draws: completed.length,
    lots,
    elapsedSeconds: round(elapsed),
    requestsPerSecond: round(replies.length / elapsed, 1),
    drawsPerSecond: round(completed.length / elapsed, 1),
    lotsPerSecond: round(lots / elapsed, 1),
    latencyMs: summary(replies.filter((r) => r.status !== 0).map((r) => r.ms)),
    drawLatencyMs: summary(completed.map((r) => r.ms)),
    statuses: tally(replies),
    failures: failures.length,
    failureSamples: failures.slice(0, 5),
  };
}

export async function runPhase(spec: PhaseSpec): Promise<PhaseResult> {
  const client = createDrawClient(spec.origins, { maxSockets: spec.concurrency });
  try {
    if (spec.kind === 'timed') {
      const random = seededRandom(spec.seed);
      const calls: DrawCall[] = [];
      const replies: DrawReply[] = [];
      let sent = 0;
      const began = performance.now();
      const deadline = began + spec.seconds * 1000;
      await Promise.all(
        Array.from({ length: spec.concurrency }, async () => {
          while (performance.now() < deadline) {
            const member = spec.members[Math.floor(random() * spec.members.length)]!;
            const n = sent++;
            const call: DrawCall = {
              instance: n % spec.origins.length,
              gachaId: spec.gachaId,
              count: spec.count,
              key: `${spec.keyPrefix}-${n}`,
              memberId: member.id,
              bearer: member.bearer,
            };
            const reply = await client.post(call);
            calls.push(call);
            replies.push(reply);
          }
        }),
      );
      return summarise(calls, replies, began, performance.now());
    }
    const calls: DrawCall[] = spec.counts.map((count, i) => {
      const member = spec.members[i % spec.members.length]!;
      return {
        instance: i % spec.origins.length,
        gachaId: spec.gachaId,
        count,
        key: `${spec.keyPrefix}-${i}`,
        memberId: member.id,
        bearer: member.bearer,
      };
    });
    const began = performance.now();
    const replies = await runBounded(calls, spec.concurrency, (call) => client.post(call));
    const result = summarise(calls, replies, began, performance.now());
    const lastOne = replies.filter((r) => r.status === 201 && r.body?.lastOne);
    result.lastOneAnswers = lastOne.length;
    result.soldOutAfterSeconds = lastOne[0] ? round((lastOne[0].at - began) / 1000) : null;
    return result;
  } finally {
    client.close();
  }
}

if (process.send) {
  process.once('message', async (spec: PhaseSpec) => {
    process.send!(await runPhase(spec));
    process.disconnect?.();
  });
}
