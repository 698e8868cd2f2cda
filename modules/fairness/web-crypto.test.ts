// The browser's verifier (Web Crypto, run here on node's globalThis.crypto.subtle) against verifyReveal:
// the same checks, details, stats and verdict on good files and on every kind of tampering.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import { propertyRuns } from '#tests/settings';
import {
  CHECK_NAMES,
  buildPackReveal,
  canonicalLots,
  computeCommitment,
  createPackCommitment,
  generateSeed,
  shuffleLots,
  verifyReveal,
  type PackReveal,
  type PackTier,
} from './commitment';
import { fisherYates, SHUFFLE_LABEL } from './format';
import {
  computeCommitmentInBrowser,
  readRevealText,
  shuffleLotsInBrowser,
  verifyRevealInBrowser,
  type Subtle,
} from './web-crypto';
import { ceilingReveal } from './testing';

const FIXTURE_PATH = path.join(import.meta.dirname, 'fixtures', 'reveal-sold-out.json');
const fixture = (): PackReveal => JSON.parse(fs.readFileSync(FIXTURE_PATH, 'utf8'));
const seedFrom = (text: string) => createHash('sha256').update(text).digest('hex');
const ZERO_SEED = '00'.repeat(32);

const tier = (id: string, quantity: number, isLastOne = false): PackTier => ({
  id,
  label: `${id}賞`,
  cardName: `カード ${id}`,
  quantity,
  conversionValue: 100,
  isLastOne,
});

/** A pack of 10 lots with キリ番 4 and 9, sold out by four draws (as in commitment.test.ts). */
function kiribanReveal(): PackReveal {
  const tiers: PackTier[] = [
    tier('a', 3),
    tier('b', 7),
    { ...tier('k', 2), label: 'キリ番賞', kiribanAt: [4, 9] },
    tier('last', 1, true),
  ];
  const gacha = { id: 'g-kiriban', title: 'キリ番テスト', pricePerDraw: 300 };
  const seed = seedFrom('kiriban');
  const { lots, commitment } = createPackCommitment({ gachaId: gacha.id, ...gacha, tiers }, seed);
  const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;
  return buildPackReveal({
    gacha,
    tiers,
    commitment,
    committedAt: at(0),
    seed,
    lots,
    draws: [
      { at: at(1), memberId: 'm1', positions: [1, 2, 3], lastOne: false },
      { at: at(2), memberId: 'm2', positions: [4, 5], lastOne: false, kiriban: [4] },
      { at: at(3), memberId: 'm3', positions: [6, 7, 8, 9], lastOne: false, kiriban: [9] },
      { at: at(4), memberId: 'm1', positions: [10], lastOne: true },
    ],
    revealSalt: seedFrom('kiriban-salt'),
    revealedAt: at(5),
  });
}

/** A freshly published pack of `lots` lots (a random seed), sold out by draws of 10 lots. */
function freshReveal(lotCount: number): PackReveal {
  const tiers = [tier('s', 1), tier('a', 9), tier('c', lotCount - 10), tier('last', 1, true)];
  const gacha = { id: 'g-fresh', title: '新しい "パック"\n改行入り', pricePerDraw: 500 };
  const { seed, lots, commitment } = createPackCommitment({ gachaId: gacha.id, ...gacha, tiers });
  const draws = [];
  for (let from = 1, n = 0; from <= lotCount; from += 10, n += 1) {
    const positions = Array.from({ length: Math.min(10, lotCount - from + 1) }, (_, i) => from + i);
    draws.push({
      at: new Date(Date.UTC(2026, 10, 22, 10) + n * 1000),
      memberId: `m${n % 7}`,
      positions,
      lastOne: from + 10 > lotCount,
    });
  }
  return buildPackReveal({
    gacha,
    tiers,
    commitment,
    committedAt: '2026-11-22T09:00:00Z',
    seed,
    lots,
    draws,
    revealSalt: generateSeed(),
    revealedAt: '2026-11-23T00:00:00Z',
  });
}

/** The browser's answer must equal node's, field for field (a JSON round trip, as a downloaded file is). */
async function expectSameAsNode(reveal: PackReveal) {
  const file = JSON.parse(JSON.stringify(reveal));
  const node = verifyReveal(JSON.parse(JSON.stringify(reveal)));
  const browser = await verifyRevealInBrowser(file);
  expect(browser).toEqual(node);
  return browser;
}

const failed = (result: { checks: { name: string; ok: boolean }[] }) =>
  result.checks.filter((c) => !c.ok).map((c) => c.name);

describe('verifyRevealInBrowser agrees with verifyReveal', () => {
  it('passes the sold-out fixture with the same six checks and details', async () => {
    const result = await expectSameAsNode(fixture());
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => c.name)).toEqual([
      'コミットメント一致',
      '並び順とシードの一致',
      '賞の数量',
      '抽選ログ',
      'ラストワン賞',
      '口数の合計',
    ]);
  });

  it('passes an ended pack and a freshly built one (5,000 lots: several batches of HMAC blocks)', async () => {
    const ended = fixture();
    ended.draws = ended.draws.slice(0, 5);
    expect((await expectSameAsNode(ended)).stats).toMatchObject({ soldOut: false, undrawnLots: 2 });
    const fresh = await expectSameAsNode(freshReveal(5000));
    expect(fresh.ok).toBe(true);
    expect(fresh.stats).toMatchObject({ totalLots: 5000, soldOut: true });
  });

  it('passes a キリ番 (oripa-pack-reveal/2) file with the seventh check', async () => {
    const result = await expectSameAsNode(kiribanReveal());
    expect(result.ok).toBe(true);
    expect(result.checks.at(-1)).toMatchObject({ name: CHECK_NAMES.kiriban, ok: true });
  });

  it('refuses a changed seed, a swapped lot, a changed count and a changed commitment as node does', async () => {
    const seed = fixture();
    seed.seed = `${seed.seed.slice(0, 63)}${seed.seed.endsWith('0') ? '1' : '0'}`;
    expect(failed(await expectSameAsNode(seed))).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order]);

    const swapped = fixture();
    const s = swapped.lots.indexOf('tier-s');
    const c = swapped.lots.indexOf('tier-c');
    [swapped.lots[s], swapped.lots[c]] = [swapped.lots[c], swapped.lots[s]];
    expect(failed(await expectSameAsNode(swapped))).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order]);

    const count = fixture();
    count.tiers[1].quantity += 1;
    expect(failed(await expectSameAsNode(count))).toEqual([
      CHECK_NAMES.commitment,
      CHECK_NAMES.order,
      CHECK_NAMES.tiers,
    ]);

    const total = fixture();
    total.gacha.totalLots = 21;
    expect(failed(await expectSameAsNode(total))).toEqual([CHECK_NAMES.totals]);

    const commitment = fixture();
    commitment.commitment = `${commitment.commitment.slice(0, 10)}${commitment.commitment[10] === 'a' ? 'b' : 'a'}${commitment.commitment.slice(11)}`;
    const refused = await expectSameAsNode(commitment);
    expect(failed(refused)).toEqual([CHECK_NAMES.commitment]);
    expect(refused.checks[0].detail).toMatch(/^再計算値 bb4ff6dac4ec43c9… が公開値 .+ と一致しません$/);
  });

  it('refuses a hand-made order whose commitment was recomputed, on the order check alone', async () => {
    const reveal = fixture();
    const s = reveal.lots.indexOf('tier-s');
    [reveal.lots[s], reveal.lots[19]] = [reveal.lots[19], reveal.lots[s]];
    reveal.commitment = computeCommitment({
      gachaId: reveal.gacha.id,
      title: reveal.gacha.title,
      pricePerDraw: reveal.gacha.pricePerDraw,
      tiers: reveal.tiers,
      seed: reveal.seed,
      lots: reveal.lots,
    });
    expect(failed(await expectSameAsNode(reveal))).toEqual([CHECK_NAMES.order]);
  });

  it('passes a 天井賞 (oripa-pack-reveal/4) file with the tenth check, and refuses an award moved as node does', async () => {
    const result = await expectSameAsNode(ceilingReveal());
    expect(result.ok).toBe(true);
    expect(result.checks.at(-1)).toMatchObject({ name: CHECK_NAMES.ceiling, ok: true });
    expect(result.stats?.ceilingAwarded).toBe(3);
    const moved = ceilingReveal();
    moved.draws[3].ceiling = 1;
    moved.draws[4].ceiling = 2;
    expect(failed(await expectSameAsNode(moved))).toEqual([CHECK_NAMES.ceiling]);
    const unlabelled = { ...ceilingReveal(), format: 'oripa-pack-reveal/3' as const };
    expect(failed(await expectSameAsNode(unlabelled))).toEqual([CHECK_NAMES.shape]);
  });

  it('refuses キリ番 changes: an award moved, the numbers changed after publication', async () => {
    const moved = kiribanReveal();
    moved.draws[2].kiriban = [];
    moved.draws[3].kiriban = [9];
    expect(failed(await expectSameAsNode(moved))).toEqual([CHECK_NAMES.kiriban]);
    const renumbered = kiribanReveal();
    renumbered.tiers = renumbered.tiers.map((t) => (t.id === 'k' ? { ...t, kiribanAt: [4, 8] } : t));
    expect(failed(await expectSameAsNode(renumbered))).toContain(CHECK_NAMES.commitment);
    expect(failed(await expectSameAsNode(renumbered))).toContain(CHECK_NAMES.kiriban);
  });

  it('gives the same answers for files that cannot be recomputed or are not reveal files', async () => {
    await expectSameAsNode({ ...fixture(), seed: 'AB'.repeat(32) });
    await expectSameAsNode({ ...fixture(), seed: 'not a seed' });
    const surrogate = { ...fixture(), gacha: { ...fixture().gacha, title: 'broken \ud800' } };
    const broken = await verifyRevealInBrowser(surrogate);
    expect(broken).toEqual(verifyReveal(surrogate));
    expect(broken.checks[0].detail).toContain('再計算できません（title is not well-formed Unicode）');
    const shape = { ...fixture(), draws: 'none' } as unknown as PackReveal;
    expect(await verifyRevealInBrowser(shape)).toEqual(verifyReveal(shape));
    expect(await verifyRevealInBrowser(shape)).toEqual({
      ok: false,
      checks: [{ name: CHECK_NAMES.shape, ok: false, detail: 'draws: 配列ではありません' }],
    });
    expect(await verifyRevealInBrowser(null)).toMatchObject({ ok: false, checks: [{ name: CHECK_NAMES.shape }] });
  });

  it('agrees on random tampering of any lot, seed character or draw position', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('lot', 'seed', 'position', 'member'),
        fc.nat(),
        fc.nat(),
        async (what, at, value) => {
          const reveal = fixture();
          if (what === 'lot') reveal.lots[at % 20] = ['tier-s', 'tier-a', 'tier-b', 'tier-c', 'x'][value % 5];
          if (what === 'seed') {
            const i = at % 64;
            reveal.seed = reveal.seed.slice(0, i) + '0123456789abcdef'[value % 16] + reveal.seed.slice(i + 1);
          }
          if (what === 'position') reveal.draws[at % 7].positions[0] = (value % 22) + 1;
          if (what === 'member') reveal.draws[at % 7].member = value.toString(16).padStart(16, '0').slice(-16);
          await expectSameAsNode(reveal);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });
});

describe('the Web Crypto hashes', () => {
  it('compute the known commitment and the known shuffle', async () => {
    const reveal = fixture();
    const input = {
      gachaId: reveal.gacha.id,
      ...reveal.gacha,
      tiers: reveal.tiers,
      seed: reveal.seed,
      lots: reveal.lots,
    };
    expect(await computeCommitmentInBrowser(input)).toBe(
      'bb4ff6dac4ec43c9b75838ef533df4cfd716f1b9fce188927b6255fb47b73c4a',
    );
    expect(await shuffleLotsInBrowser(ZERO_SEED, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])).toEqual([
      '6',
      '10',
      '8',
      '5',
      '3',
      '1',
      '9',
      '2',
      '4',
      '7',
    ]);
    expect((await shuffleLotsInBrowser('ff'.repeat(32), [...'abcdefghijklmnopqrstuvwxyz'])).join('')).toBe(
      'xntpyfgjsoriqwmlzachvukedb',
    );
  });

  it('shuffle exactly as shuffleLots for any seed and list', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('s', 'a', 'b', 'c'), { maxLength: 300 }),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        async (ids, seed) => {
          expect(await shuffleLotsInBrowser(seed, ids)).toEqual(shuffleLots(seed, ids));
        },
      ),
      { numRuns: propertyRuns(50) },
    );
    const lots = canonicalLots([tier('s', 10), tier('a', 990), tier('c', 20_000)]);
    const seed = generateSeed();
    expect(await shuffleLotsInBrowser(seed, lots)).toEqual(shuffleLots(seed, lots));
  });

  it('compute more blocks and shuffle again when rejections use up the first estimate', async () => {
    // A stand-in HMAC whose first 40 blocks are all 0xffffffff: rejected for every bound that is not a power
    // of two, so the first estimate (n − 1 candidates plus four blocks) runs out.
    const block = (counter: number) =>
      counter < 40
        ? new Uint8Array(32).fill(0xff)
        : new Uint8Array(createHmac('sha256', 'stand-in').update(String(counter)).digest());
    const counterOf = (message: Uint8Array) =>
      new DataView(message.buffer, message.byteOffset).getUint32(SHUFFLE_LABEL.length);
    let signs = 0;
    const subtle: Subtle = {
      digest: (...args) => globalThis.crypto.subtle.digest(...args),
      importKey: (() => Promise.resolve({} as CryptoKey)) as Subtle['importKey'],
      sign: ((_algorithm: unknown, _key: unknown, message: Uint8Array) => {
        signs += 1;
        return Promise.resolve(block(counterOf(message)).buffer);
      }) as Subtle['sign'],
    };
    const ids = Array.from({ length: 100 }, (_, i) => `id${i}`);
    let counter = 0;
    let offset = 8;
    let current = new DataView(new ArrayBuffer(32));
    const expected = fisherYates(ids, () => {
      if (offset === 8) {
        current = new DataView(block(counter).buffer);
        counter += 1;
        offset = 0;
      }
      return current.getUint32(offset++ * 4);
    });
    expect(await shuffleLotsInBrowser(ZERO_SEED, ids, subtle)).toEqual(expected);
    expect(signs).toBeGreaterThan(Math.ceil(99 / 8) + 4);
  });
});

describe('readRevealText', () => {
  it('reads JSON with or without a BOM and names a broken file in Japanese', () => {
    expect(readRevealText('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    const broken = readRevealText('{"format": "oripa-pack-reveal/1",');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^JSON として読み込めません（.+）$/);
  });
});
