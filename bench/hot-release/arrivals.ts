// The hot release's members, in a process of their own (forked by bench/hot-release/index.ts), so the
// load does not share the shop's event loop and its CPU is counted apart. Open loop: each member arrives
// at a seeded random moment within the arrival window, whatever the shop's speed, opens the pack page
// with their session cookie and, once it has answered 200, opens the pack's live stream as the page's
// script does (`?since=` the page's time; the first event read, then closed: 5,000 open streams do not fit
// this machine's sockets) and draws one lot through the JSON API (a fresh Idempotency-Key). Each latency runs from the moment the member asked (a queue in the client's sockets
// counts: a member waits for it too).
import http from 'node:http';
import { createDrawClient, latencySummary, seededRandom, tally, type DrawReply } from '../draw/client';

export interface ArrivalSpec {
  origin: string;
  pagePath: string;
  gachaId: string;
  members: { id: string; bearer: string }[];
  cookieName: string;
  arrivalSeconds: number;
  /** Sockets the members share (a phone has its own; this machine cannot hold 5,000 at once). */
  maxSockets: number;
  seed: number;
}

export interface ArrivalResult {
  members: number;
  /** From the first arrival to the last answer. */
  servedAllSeconds: number;
  pages: { answered: number; perSecond: number; statuses: Record<string, number>; latencyMs: Latency };
  /** The live stream's opening: from asking to its first event. */
  streams: { opened: number; statuses: Record<string, number>; latencyMs: Latency };
  draws: { answered: number; perSecond: number; statuses: Record<string, number>; latencyMs: Latency };
}

type Latency = ReturnType<typeof latencySummary>;

const round = (n: number) => Math.round(n * 100) / 100;

function openPage(agent: http.Agent, url: URL, cookie: string): Promise<{ status: number; at: number }> {
  return new Promise((resolve) => {
    const request = http.get(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { accept: 'text/html', 'accept-encoding': 'br, gzip', cookie },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, at: performance.now() }));
        response.on('error', () => resolve({ status: 0, at: performance.now() }));
      },
    );
    request.on('error', () => resolve({ status: 0, at: performance.now() }));
  });
}

/** Opens the pack's event stream, reads until its first event, closes it: the status and when. */
function openStream(agent: http.Agent, url: URL, cookie: string): Promise<{ status: number; at: number }> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: number) => {
      if (settled) return;
      settled = true;
      resolve({ status, at: performance.now() });
    };
    const request = http.get(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: { accept: 'text/event-stream', cookie },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          response.on('end', () => done(response.statusCode ?? 0));
          return;
        }
        response.on('data', (chunk: Buffer) => {
          if (!chunk.toString('utf8').includes('event:')) return;
          done(200);
          request.destroy();
        });
        response.on('error', () => done(0));
      },
    );
    request.on('error', () => done(0));
  });
}

export async function runArrivals(spec: ArrivalSpec): Promise<ArrivalResult> {
  const random = seededRandom(spec.seed);
  const url = new URL(spec.pagePath, spec.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.maxSockets });
  const draws = createDrawClient([spec.origin], { maxSockets: spec.maxSockets, timeoutMs: 300_000 });
  // A stream's socket is closed after its first event: no keep-alive to return it to.
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: spec.maxSockets });
  const streamLatencies: number[] = [];
  const streamStatuses: Record<string, number> = {};
  const pageLatencies: number[] = [];
  const drawLatencies: number[] = [];
  const pageStatuses: Record<string, number> = {};
  const drawReplies: DrawReply[] = [];
  const began = performance.now();
  let lastAnswer = began;
  await Promise.all(
    spec.members.map(async (member, i) => {
      await new Promise((resolve) => setTimeout(resolve, random() * spec.arrivalSeconds * 1000));
      const asked = performance.now();
      const page = await openPage(agent, url, `${spec.cookieName}=${member.bearer}`);
      pageLatencies.push(page.at - asked);
      pageStatuses[String(page.status)] = (pageStatuses[String(page.status)] ?? 0) + 1;
      lastAnswer = Math.max(lastAnswer, page.at);
      if (page.status !== 200) return;
      const streamUrl = new URL(
        `/api/v1/gachas/${spec.gachaId}/events?since=${encodeURIComponent(new Date().toISOString())}`,
        spec.origin,
      );
      const streamAsked = performance.now();
      const stream = await openStream(streamAgent, streamUrl, `${spec.cookieName}=${member.bearer}`);
      streamLatencies.push(stream.at - streamAsked);
      streamStatuses[String(stream.status)] = (streamStatuses[String(stream.status)] ?? 0) + 1;
      const reply = await draws.post({
        instance: 0,
        gachaId: spec.gachaId,
        count: 1,
        key: `hot-release-${spec.seed}-${i}`,
        memberId: member.id,
        bearer: member.bearer,
      });
      drawReplies.push(reply);
      drawLatencies.push(reply.ms);
      lastAnswer = Math.max(lastAnswer, reply.at);
    }),
  );
  agent.destroy();
  streamAgent.destroy();
  draws.close();
  const seconds = (lastAnswer - began) / 1000;
  const drawn = drawReplies.filter((r) => r.status === 201).length;
  return {
    members: spec.members.length,
    servedAllSeconds: round(seconds),
    pages: {
      answered: pageLatencies.length,
      perSecond: round((pageStatuses['200'] ?? 0) / seconds),
      statuses: pageStatuses,
      latencyMs: latencySummary(pageLatencies),
    },
    streams: {
      opened: streamStatuses['200'] ?? 0,
      statuses: streamStatuses,
      latencyMs: latencySummary(streamLatencies),
    },
    draws: {
      answered: drawReplies.length,
      perSecond: round(drawn / seconds),
      statuses: tally(drawReplies),
      latencyMs: latencySummary(drawLatencies),
    },
  };
}

process.once('message', async (spec: ArrivalSpec) => {
  process.send?.(await runArrivals(spec));
  process.disconnect?.();
});
