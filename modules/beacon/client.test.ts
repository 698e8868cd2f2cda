// The beacon client against the drand stand-in: a verified beacon, 425 as "not yet published", a timeout,
// a network failure, other statuses, and every kind of bad beacon; the chain info checked against its hash.
// The clock is the test's; the one timeout is the client's own against a request the stand-in holds for ten
// minutes, so it fires however busy the machine is.
import { afterEach, describe, expect, it } from 'vitest';
import { startDrandStandin, type DrandStandin } from '#devtools/standins/drand';
import { scaledTimeout } from '#tests/settings';
import { QUICKNET } from './chain-info';
import { fetchBeacon, fetchChainInfo, type BeaconSource } from './client';
import { roundTime } from './rounds';

const GENESIS = 1_700_000_000;
const opened: DrandStandin[] = [];
afterEach(async () => {
  for (const standin of opened.splice(0)) await standin.close();
});

/** A stand-in whose clock stands at `round`'s time until `moveTo` moves it. */
async function standinAtRound(round: number, holdMs = 600_000) {
  let now = GENESIS * 1000;
  const drand = await startDrandStandin({ seed: 'client', genesisTime: GENESIS, now: () => now, holdMs });
  opened.push(drand);
  const moveTo = (to: number) => void (now = roundTime(drand.info, to));
  moveTo(round);
  return Object.assign(drand, { moveTo });
}

/** Generous: a verified answer on a busy machine, never a limit the test relies on. */
const source = (drand: DrandStandin, extra: Partial<BeaconSource> = {}): BeaconSource => ({
  baseUrl: drand.url,
  timeoutMs: scaledTimeout(30_000),
  ...extra,
});

describe('fetchBeacon', () => {
  it('answers a numbered round and the latest, each verified', async () => {
    const drand = await standinAtRound(8);
    const eighth = await fetchBeacon(source(drand), drand.info, 8);
    expect(eighth).toEqual({ ok: true, url: `${drand.url}/${drand.chainHash}/public/8`, beacon: drand.beacon(8) });
    const latest = await fetchBeacon(source(drand, { baseUrl: `${drand.url}/` }), drand.info, 'latest');
    expect(latest).toMatchObject({ ok: true, beacon: drand.beacon(8) });
  });

  it('says "not yet published" when the relay answers 425 Too Early', async () => {
    const drand = await standinAtRound(8);
    expect(await fetchBeacon(source(drand), drand.info, 10)).toMatchObject({
      ok: false,
      failure: 'not-yet-published',
      status: 425,
    });
  });

  it('gives up after its timeout while the relay holds the next round', async () => {
    const drand = await standinAtRound(8);
    const answer = await fetchBeacon(source(drand, { timeoutMs: 200 }), drand.info, 9);
    expect(answer).toMatchObject({ ok: false, failure: 'timeout' });
    expect(drand.calls).toEqual([]);
  });

  it('tells a network failure from a timeout', async () => {
    const drand = await standinAtRound(8);
    const gone = drand.url;
    await drand.close();
    const answer = await fetchBeacon({ baseUrl: gone, timeoutMs: scaledTimeout(30_000) }, drand.info, 8);
    expect(answer).toMatchObject({ ok: false, failure: 'network' });
    const aborted = await fetchBeacon(source(drand, { signal: AbortSignal.abort() }), drand.info, 8);
    expect(aborted).toMatchObject({ ok: false, failure: 'network' });
  });

  it('passes other statuses on: a due round the network has not produced (500), an unknown chain (400)', async () => {
    const drand = await standinAtRound(8);
    drand.late(30);
    drand.moveTo(12);
    expect(await fetchBeacon(source(drand), drand.info, 10)).toMatchObject({
      ok: false,
      failure: 'http-status',
      status: 500,
    });
    expect(await fetchBeacon(source(drand), drand.info, 8)).toMatchObject({ ok: true });
    const unknownChain = { ...drand.info, hash: 'ab'.repeat(32) };
    expect(await fetchBeacon(source(drand), unknownChain, 8)).toMatchObject({
      ok: false,
      failure: 'http-status',
      status: 400,
    });
  });

  it('refuses a bad beacon with the verification’s reason', async () => {
    const drand = await standinAtRound(8);
    drand.wrong('other-key');
    expect(await fetchBeacon(source(drand), drand.info, 8)).toMatchObject({
      ok: false,
      failure: 'bad-beacon',
      reason: 'signature',
    });
    drand.wrong('randomness');
    expect(await fetchBeacon(source(drand), drand.info, 'latest')).toMatchObject({
      ok: false,
      failure: 'bad-beacon',
      reason: 'randomness',
    });
    drand.wrong(null);
    // The stand-in's genuine beacons are not quicknet's.
    const quicknetKey = { ...QUICKNET, hash: drand.chainHash };
    expect(await fetchBeacon(source(drand), quicknetKey, 8)).toMatchObject({
      failure: 'bad-beacon',
      reason: 'signature',
    });
  });

  it('refuses another round’s genuine beacon, and an answer that is not a beacon', async () => {
    const drand = await standinAtRound(8);
    const elsewhere: typeof fetch = (url, init) => fetch(String(url).replace('/public/8', '/public/7'), init);
    expect(await fetchBeacon(source(drand, { fetch: elsewhere }), drand.info, 8)).toMatchObject({
      failure: 'bad-beacon',
      reason: 'round',
    });
    const notJson: typeof fetch = async () => new Response('<html>maintenance</html>', { status: 200 });
    expect(await fetchBeacon(source(drand, { fetch: notJson }), drand.info, 8)).toMatchObject({
      failure: 'bad-beacon',
      reason: 'malformed',
    });
  });

  it('throws only on misuse', async () => {
    const drand = await standinAtRound(8);
    await expect(fetchBeacon(source(drand, { timeoutMs: 0 }), drand.info, 8)).rejects.toThrow(RangeError);
    await expect(fetchBeacon(source(drand), drand.info, 0)).rejects.toThrow(RangeError);
    await expect(fetchBeacon(source(drand, { baseUrl: 'not a url' }), drand.info, 8)).rejects.toThrow(RangeError);
  });
});

describe('fetchChainInfo', () => {
  it('accepts the info whose fields derive the hash asked for', async () => {
    const drand = await standinAtRound(1);
    expect(await fetchChainInfo(source(drand), drand.chainHash)).toEqual({
      ok: true,
      url: `${drand.url}/${drand.chainHash}/info`,
      info: drand.info,
    });
  });

  it('refuses an info that does not derive its hash, and passes a relay’s refusal on', async () => {
    const drand = await standinAtRound(1);
    const swappedKey: typeof fetch = async () => Response.json({ ...drand.info, public_key: QUICKNET.public_key });
    expect(await fetchChainInfo(source(drand, { fetch: swappedKey }), drand.chainHash)).toMatchObject({
      ok: false,
      failure: 'bad-chain-info',
    });
    const notInfo: typeof fetch = async () => Response.json({ hash: drand.chainHash });
    expect(await fetchChainInfo(source(drand, { fetch: notInfo }), drand.chainHash)).toMatchObject({
      failure: 'bad-chain-info',
    });
    expect(await fetchChainInfo(source(drand), QUICKNET.hash)).toMatchObject({ failure: 'http-status', status: 500 });
  });
});
