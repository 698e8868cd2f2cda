// The drand stand-in (devtools/standins/drand) as drand's relay answers: its chain info derives its hash,
// its beacons are real BLS signatures that verify against its own info and fail against quicknet's, and
// the controls (late, silent, wrong) change what it answers. Time is the test's clock: nothing sleeps,
// except requests the stand-in holds, which end as soon as the clock makes their round public.
import { afterEach, describe, expect, it } from 'vitest';
import { startDrandStandin, type DrandStandin } from '#devtools/standins/drand';
import { scaledTimeout } from '#tests/settings';
import { chainInfoSchema, hashMatchesInfo, QUICKNET, type ChainInfo } from './chain-info';
import { roundTime } from './rounds';
import { verifyBeacon } from './verify';

const GENESIS = 1_700_000_000;
const opened: DrandStandin[] = [];
afterEach(async () => {
  for (const standin of opened.splice(0)) await standin.close();
});

/** A stand-in on a clock the test moves: `clock.at(round)` is that round's time. */
async function standinOnClock(options: { period?: number; holdMs?: number; seed?: string } = {}) {
  let now = GENESIS * 1000;
  const drand = await startDrandStandin({
    seed: options.seed ?? 'test',
    genesisTime: GENESIS,
    now: () => now,
    ...options,
  });
  opened.push(drand);
  const clock = {
    set: (ms: number) => void (now = ms),
    at: (round: number) => void (now = roundTime(drand.info, round)),
  };
  return { drand, clock };
}

const get = (drand: DrandStandin, path: string) => fetch(`${drand.url}${path}`);
const json = async (drand: DrandStandin, path: string) => {
  const response = await get(drand, path);
  expect(response.status, path).toBe(200);
  return response.json();
};

describe('the drand stand-in, normal', () => {
  it('serves a chain info of quicknet’s scheme that derives its own hash, under its hash and as the default chain', async () => {
    const { drand } = await standinOnClock({ period: 5 });
    const info: ChainInfo = chainInfoSchema.parse(await json(drand, `/${drand.chainHash}/info`));
    expect(info).toEqual(drand.info);
    expect(info).toMatchObject({ period: 5, genesis_time: GENESIS, schemeID: 'bls-unchained-g1-rfc9380' });
    expect(info.public_key).toHaveLength(192);
    expect(hashMatchesInfo(info)).toBe(true);
    expect(info.hash).not.toBe(QUICKNET.hash);
    expect(await json(drand, '/info')).toEqual(info);
    expect(await json(drand, '/chains')).toEqual([drand.chainHash]);
    expect(await json(drand, `/${drand.chainHash.toUpperCase()}/info`)).toEqual(info);
  });

  it('makes the same chain from the same seed, and another from another', async () => {
    const first = await standinOnClock({ seed: 'same' });
    const second = await standinOnClock({ seed: 'same' });
    const other = await standinOnClock({ seed: 'other' });
    expect(second.drand.info).toEqual(first.drand.info);
    expect(second.drand.beacon(7)).toEqual(first.drand.beacon(7));
    expect(other.drand.chainHash).not.toBe(first.drand.chainHash);
  });

  it('publishes round N at its time: real signatures that verify against its info and not against quicknet', async () => {
    const { drand, clock } = await standinOnClock();
    clock.at(5);
    const latest = await json(drand, `/${drand.chainHash}/public/latest`);
    expect(latest).toEqual(drand.beacon(5));
    expect(verifyBeacon(drand.info, latest, 5)).toEqual({ valid: true, round: 5, randomness: latest.randomness });
    expect(verifyBeacon(QUICKNET, latest)).toMatchObject({ valid: false, failure: 'signature' });
    const third = await json(drand, `/${drand.chainHash}/public/3`);
    expect(verifyBeacon(drand.info, third, 3).valid).toBe(true);
    expect(await json(drand, '/public/3')).toEqual(third);
    expect(await json(drand, `/${drand.chainHash}/public/0`)).toEqual(latest);
    clock.set(roundTime(drand.info, 6) - 1);
    expect(drand.publishedRound()).toBe(5);
    clock.at(6);
    expect(drand.publishedRound()).toBe(6);
  });

  it('answers 425 Too Early for a round beyond the next one, as drand’s relay does', async () => {
    const { drand, clock } = await standinOnClock();
    clock.at(10);
    const response = await get(drand, `/${drand.chainHash}/public/12`);
    expect(response.status).toBe(425);
    expect(response.headers.get('cache-control')).toBe('must-revalidate, no-cache, max-age=0');
    expect(await response.text()).toBe('Requested future beacon\n');
    expect((await get(drand, `/${drand.chainHash}/public/18446744073709551615`)).status).toBe(425);
    expect((await get(drand, `/${drand.chainHash}/public/18446744073709551616`)).status).toBe(400);
  });

  it('holds a request for the next round until the round is public', async () => {
    const { drand, clock } = await standinOnClock({ holdMs: 600_000 });
    clock.at(10);
    const pending = get(drand, `/${drand.chainHash}/public/11`);
    await expect.poll(() => drand.heldRequests(), { timeout: scaledTimeout(30_000) }).toBe(1);
    expect(drand.calls).toEqual([]);
    clock.at(11);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(drand.beacon(11));
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
  });

  it('answers an unknown chain and a path that is none as the relay does', async () => {
    const { drand } = await standinOnClock();
    const unknown = 'ab'.repeat(32);
    expect((await get(drand, `/${unknown}/public/1`)).status).toBe(400);
    expect((await get(drand, `/${unknown}/info`)).status).toBe(500);
    expect((await get(drand, '/not-a-hash/info')).status).toBe(404);
    expect((await get(drand, `/${drand.chainHash}/public/one`)).status).toBe(404);
    expect((await get(drand, `/${drand.chainHash}/somewhere`)).status).toBe(404);
    const info = await get(drand, '/info');
    expect(info.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the drand stand-in’s controls', () => {
  it('late: rounds become public N seconds after their time; those already public stay', async () => {
    const { drand, clock } = await standinOnClock();
    clock.at(10);
    drand.late(7);
    expect(drand.publishedRound()).toBe(10);
    clock.at(12);
    expect(drand.publishedRound()).toBe(10);
    // Round 12 is due but not public: the relay asks the network, which has not produced it.
    const notYet = await get(drand, `/${drand.chainHash}/public/12`);
    expect(notYet.status).toBe(500);
    clock.set(roundTime(drand.info, 11) + 7000 - 1);
    expect(drand.publishedRound()).toBe(10);
    clock.set(roundTime(drand.info, 11) + 7000);
    expect(drand.publishedRound()).toBe(11);
    expect(await json(drand, `/${drand.chainHash}/public/latest`)).toEqual(drand.beacon(11));
    const health = await get(drand, '/health');
    expect([health.status, await health.json()]).toEqual([503, { current: 11, expected: 13 }]);
    drand.normal();
    expect(drand.publishedRound()).toBe(13);
  });

  it('silent: no new round; the health check says so; rounds due meanwhile appear once it speaks again', async () => {
    const { drand, clock } = await standinOnClock({ holdMs: 1 });
    clock.at(20);
    drand.silent();
    clock.at(30);
    expect(drand.publishedRound()).toBe(20);
    expect(await json(drand, `/${drand.chainHash}/public/latest`)).toEqual(drand.beacon(20));
    const health = await get(drand, `/${drand.chainHash}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ current: 20, expected: 30 });
    // The next round after the last public one is held (here 1 ms), then the relay gives up with 500.
    expect((await get(drand, `/${drand.chainHash}/public/21`)).status).toBe(500);
    expect((await get(drand, `/${drand.chainHash}/public/25`)).status).toBe(500);
    expect((await get(drand, `/${drand.chainHash}/public/32`)).status).toBe(425);
    drand.silent(false);
    expect(drand.publishedRound()).toBe(30);
    expect(await json(drand, `/${drand.chainHash}/public/25`)).toEqual(drand.beacon(25));
  });

  it('wrong: signatures by another key, or randomness that does not match, each refused by verifyBeacon', async () => {
    const { drand, clock } = await standinOnClock();
    clock.at(9);
    drand.wrong('other-key');
    const forged = await json(drand, `/${drand.chainHash}/public/9`);
    expect(forged.signature).not.toBe(drand.beacon(9).signature);
    expect(verifyBeacon(drand.info, forged, 9)).toMatchObject({ valid: false, failure: 'signature' });
    drand.wrong('randomness');
    const mismatched = await json(drand, `/${drand.chainHash}/public/9`);
    expect(mismatched.signature).toBe(drand.beacon(9).signature);
    expect(verifyBeacon(drand.info, mismatched, 9)).toMatchObject({ valid: false, failure: 'randomness' });
    drand.wrong(null);
    expect(verifyBeacon(drand.info, await json(drand, `/${drand.chainHash}/public/9`), 9).valid).toBe(true);
  });

  it('records every request it answered', async () => {
    const { drand, clock } = await standinOnClock();
    clock.at(2);
    await get(drand, `/${drand.chainHash}/public/2`);
    await get(drand, `/${drand.chainHash}/public/9`);
    expect(drand.calls).toEqual([
      { path: `/${drand.chainHash}/public/2`, status: 200 },
      { path: `/${drand.chainHash}/public/9`, status: 425 },
    ]);
  });
});
