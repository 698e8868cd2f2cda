// The commitment scheme: seed, shuffle, hash, pseudonyms, reveal verification, and the stand-alone script.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '#tests/settings';
import { createHash } from 'node:crypto';
import {
  CHECK_NAMES,
  CommitmentInputError,
  MAX_LOTS,
  anonymiseMember,
  buildPackReveal,
  canonicalLots,
  canonicalPackDocument,
  computeCommitment,
  createPackCommitment,
  generateSeed,
  parsePackReveal,
  shuffleLots,
  verifyReveal,
  type PackReveal,
} from './commitment';
import { fixture, kiribanReveal, kiribanTiers, seedFrom, tier } from './testing';

/** Known answer, also reproduced by the Python reference in decision 005: a change here is a format change. */
const FIXTURE_COMMITMENT = 'bb4ff6dac4ec43c9b75838ef533df4cfd716f1b9fce188927b6255fb47b73c4a';
const ZERO_SEED = '00'.repeat(32);

const failedChecks = (reveal: PackReveal) =>
  verifyReveal(reveal)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);

/** A hex character other than the one given. */
const otherHex = (c: string) => (c === '0' ? '1' : '0');

describe('generateSeed', () => {
  it('is 32 random bytes in lower-case hex', () => {
    const seeds = new Set(Array.from({ length: 50 }, generateSeed));
    expect(seeds.size).toBe(50);
    for (const seed of seeds) expect(seed).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonicalLots', () => {
  it('sorts the lot tiers by id, repeats each by its quantity and leaves out the last-one tier', () => {
    expect(canonicalLots([tier('b', 2), tier('last', 1, true), tier('a', 1), tier('C', 3)])).toEqual([
      'C',
      'C',
      'C',
      'a',
      'b',
      'b',
    ]);
  });
  it('refuses tiers without one canonical form', () => {
    expect(() => canonicalLots([tier('a', 1), tier('a', 2)])).toThrow(CommitmentInputError);
    expect(() => canonicalLots([tier('S賞', 1)])).toThrow(/ASCII/);
    expect(() => canonicalLots([tier('a b', 1)])).toThrow(/ASCII/);
    expect(() => canonicalLots([tier('a', 0)])).toThrow(/quantity/);
    expect(() => canonicalLots([tier('a', 1.5)])).toThrow(/quantity/);
    expect(() => canonicalLots([tier('a', 1), { ...tier('b', 1), conversionValue: -1 }])).toThrow(/conversionValue/);
    expect(() => canonicalLots([tier('a', 1), tier('x', 1, true), tier('y', 1, true)])).toThrow(/last-one/);
    expect(() => canonicalLots([tier('a', 1), tier('x', 2, true)])).toThrow(/quantity 1/);
    expect(() => canonicalLots([tier('x', 1, true)])).toThrow(/lots/);
    expect(() => canonicalLots([tier('a', MAX_LOTS + 1)])).toThrow(/lots/);
  });
});

describe('shuffleLots', () => {
  it('is the same for the same seed and differs between seeds', () => {
    const lots = canonicalLots([tier('a', 10), tier('b', 10), tier('c', 10)]);
    const seed = generateSeed();
    expect(shuffleLots(seed, lots)).toEqual(shuffleLots(seed, lots));
    expect(shuffleLots(seed, lots)).not.toEqual(shuffleLots(generateSeed(), lots));
  });

  it('returns a permutation and leaves its input alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('s', 'a', 'b', 'c'), { maxLength: 200 }),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        (ids, seed) => {
          const before = [...ids];
          const shuffled = shuffleLots(seed, ids);
          expect(ids).toEqual(before);
          expect([...shuffled].sort()).toEqual([...ids].sort());
        },
      ),
      { numRuns: propertyRuns(100) },
    );
    const positions = Array.from({ length: 1000 }, (_, i) => String(i));
    expect(new Set(shuffleLots(generateSeed(), positions)).size).toBe(1000);
  });

  it('matches the known answer (HMAC-SHA256 stream, Fisher–Yates from the end)', () => {
    // Also reproduced by the Python reference in decision 005.
    expect(shuffleLots(ZERO_SEED, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])).toEqual([
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
    expect(shuffleLots('ff'.repeat(32), [...'abcdefghijklmnopqrstuvwxyz']).join('')).toBe('xntpyfgjsoriqwmlzachvukedb');
    expect(fixture().lots).toEqual(shuffleLots(fixture().seed, canonicalLots(fixture().tiers)));
    expect(fixture().lots.slice(0, 6)).toEqual(['tier-c', 'tier-c', 'tier-c', 'tier-c', 'tier-c', 'tier-s']);
  });

  it('spreads every order evenly: chi-square over the 24 orders of 4 lots', () => {
    const counts = new Map<string, number>();
    const runs = 24 * 250;
    for (let i = 0; i < runs; i += 1) {
      const key = shuffleLots(seedFrom(`uniformity ${i}`), ['a', 'b', 'c', 'd']).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    const expected = runs / 24;
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(49.73); // 23 degrees of freedom, p = 0.001
  });

  it('puts the one prize lot at every position equally often (chi-square, 10 positions)', () => {
    const lots = ['S', ...Array<string>(9).fill('c')];
    const atPosition = new Array<number>(10).fill(0);
    const runs = 10_000;
    for (let i = 0; i < runs; i += 1) atPosition[shuffleLots(seedFrom(`position ${i}`), lots).indexOf('S')] += 1;
    const chiSquare = atPosition.reduce((sum, n) => sum + (n - runs / 10) ** 2 / (runs / 10), 0);
    expect(chiSquare).toBeLessThan(27.88); // 9 degrees of freedom, p = 0.001
  });

  it('shuffles 100,000 lots in well under a second', () => {
    const lots = canonicalLots([tier('s', 10), tier('a', 990), tier('c', 99_000)]);
    const started = performance.now();
    const shuffled = shuffleLots(generateSeed(), lots);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(shuffled).toHaveLength(100_000);
    expect(shuffled.filter((id) => id === 's')).toHaveLength(10);
  });

  it('refuses a seed that is not 64 lower-case hex characters', () => {
    expect(() => shuffleLots('AB'.repeat(32), ['a'])).toThrow(CommitmentInputError);
    expect(() => shuffleLots('ab'.repeat(31), ['a'])).toThrow(CommitmentInputError);
    expect(() => shuffleLots(`${'ab'.repeat(31)}zz`, ['a'])).toThrow(CommitmentInputError);
  });
});

describe('computeCommitment', () => {
  const terms = {
    gachaId: 'g-1',
    title: 'テスト "パック"\n1',
    pricePerDraw: 500,
    tiers: [tier('b', 2), tier('last', 1, true), tier('a', 1)],
  };

  it('hashes the documented bytes', () => {
    const input = { ...terms, seed: ZERO_SEED, lots: ['b', 'a', 'b'] };
    expect(canonicalPackDocument(input)).toBe(
      [
        'oripa-commitment-v1',
        'gacha 3:g-1 23:テスト "パック"\n1 500 3',
        'tiers 3',
        'tier 1:a 4:a賞 11:カード a 1 100 0',
        'tier 1:b 4:b賞 11:カード b 2 100 0',
        'tier 4:last 7:last賞 14:カード last 1 100 1',
        `seed ${ZERO_SEED}`,
        'lots 3',
        'lot 1:b',
        'lot 1:a',
        'lot 1:b',
        '',
      ].join('\n'),
    );
    expect(computeCommitment(input)).toBe(
      createHash('sha256')
        .update(Buffer.from(canonicalPackDocument(input), 'utf8'))
        .digest('hex'),
    );
  });

  it('matches the fixture, whose value the Python reference also computes', () => {
    const reveal = fixture();
    expect(reveal.commitment).toBe(FIXTURE_COMMITMENT);
    expect(
      computeCommitment({
        gachaId: reveal.gacha.id,
        title: reveal.gacha.title,
        pricePerDraw: reveal.gacha.pricePerDraw,
        tiers: reveal.tiers,
        seed: reveal.seed,
        lots: reveal.lots,
      }),
    ).toBe(FIXTURE_COMMITMENT);
  });

  it('does not depend on the order the tiers are listed in', () => {
    const input = { ...terms, seed: ZERO_SEED, lots: ['b', 'a', 'b'] };
    expect(computeCommitment({ ...input, tiers: [...input.tiers].reverse() })).toBe(computeCommitment(input));
  });

  it('changes with every committed field', () => {
    const input = { ...terms, seed: ZERO_SEED, lots: ['b', 'a', 'b'] };
    const base = computeCommitment(input);
    const variants = [
      { ...input, gachaId: 'g-2' },
      { ...input, title: 'テスト' },
      { ...input, pricePerDraw: 501 },
      { ...input, seed: `${'00'.repeat(31)}01` },
      { ...input, lots: ['a', 'b', 'b'] },
      { ...input, tiers: [{ ...tier('b', 2), label: 'B賞' }, tier('last', 1, true), tier('a', 1)] },
      { ...input, tiers: [{ ...tier('b', 2), cardName: 'x' }, tier('last', 1, true), tier('a', 1)] },
      { ...input, tiers: [{ ...tier('b', 2), conversionValue: 101 }, tier('last', 1, true), tier('a', 1)] },
      { ...input, tiers: [tier('b', 2), tier('last', 1, false), tier('a', 1)] },
    ];
    const hashes = variants.map(computeCommitment);
    expect(new Set([base, ...hashes]).size).toBe(variants.length + 1);
  });

  it('cannot be made ambiguous by text that looks like a field boundary', () => {
    const input = { ...terms, seed: ZERO_SEED, lots: ['b', 'a', 'b'] };
    expect(computeCommitment({ ...input, gachaId: 'x', title: 'y 2:zz' })).not.toBe(
      computeCommitment({ ...input, gachaId: 'x 1:y', title: 'zz' }),
    );
  });

  it('refuses input without a canonical form', () => {
    const input = { ...terms, seed: ZERO_SEED, lots: ['b', 'a', 'b'] };
    expect(() => computeCommitment({ ...input, title: 'broken \ud800' })).toThrow(/Unicode/);
    expect(() => computeCommitment({ ...input, pricePerDraw: 1.5 })).toThrow(/pricePerDraw/);
    expect(() => computeCommitment({ ...input, seed: 'ABC' })).toThrow(/seed/);
    expect(() => computeCommitment({ ...input, lots: [] })).toThrow(/lots/);
  });

  it('createPackCommitment ties seed, shuffled lots and hash together', () => {
    const { seed, lots, commitment } = createPackCommitment(terms);
    expect(lots).toEqual(shuffleLots(seed, ['a', 'b', 'b']));
    expect(commitment).toBe(computeCommitment({ ...terms, seed, lots }));
    expect(createPackCommitment(terms, seed)).toEqual({ seed, lots, commitment });
  });
});

describe('anonymiseMember', () => {
  const salt = seedFrom('pack one');
  it('is short hex, stable within a pack, different across packs and members', () => {
    const id = 'mem_8f3a2c@example.com';
    expect(anonymiseMember(id, salt)).toMatch(/^[0-9a-f]{16}$/);
    expect(anonymiseMember(id, salt)).toBe(anonymiseMember(id, salt));
    expect(anonymiseMember(id, seedFrom('pack two'))).not.toBe(anonymiseMember(id, salt));
    expect(anonymiseMember('mem_other', salt)).not.toBe(anonymiseMember(id, salt));
  });
  it('refuses an empty member or a weak salt', () => {
    expect(() => anonymiseMember('', salt)).toThrow(CommitmentInputError);
    expect(() => anonymiseMember('m', 'short')).toThrow(CommitmentInputError);
  });
});

describe('parsePackReveal', () => {
  it('accepts the fixture', () => {
    expect(parsePackReveal(fixture())).toMatchObject({ ok: true });
  });
  it('names each wrong field in Japanese', () => {
    const reveal = fixture() as unknown as Record<string, unknown>;
    const broken = {
      ...reveal,
      seed: 42,
      lots: 'x',
      draws: [{ drawNo: '1', at: 'x', member: 'm', positions: [1.5], lastOne: 'no' }],
    };
    const parsed = parsePackReveal(broken);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      'seed: 文字列ではありません',
      'lots: 配列ではありません',
      'draws[0].drawNo: 整数ではありません',
      'draws[0].lastOne: 真偽値ではありません',
      'draws[0].positions[0]: 整数ではありません',
    ]);
  });
  it('refuses another format or a non-object', () => {
    expect(parsePackReveal({ ...fixture(), format: 'oripa-pack-reveal/3' })).toMatchObject({ ok: false });
    // /2 (キリ番) needs each draw's kiriban list; /1 may not carry one.
    expect(parsePackReveal({ ...fixture(), format: 'oripa-pack-reveal/2' })).toMatchObject({ ok: false });
    const v1 = fixture();
    v1.draws[0].kiriban = [3];
    expect(parsePackReveal(v1)).toMatchObject({ ok: false });
    expect(parsePackReveal([])).toMatchObject({ ok: false });
    expect(parsePackReveal(null)).toMatchObject({ ok: false });
  });
});

describe('verifyReveal', () => {
  it('passes the fixture with every check, named in Japanese', () => {
    const result = verifyReveal(fixture());
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
      ['コミットメント一致', true],
      ['並び順とシードの一致', true],
      ['賞の数量', true],
      ['抽選ログ', true],
      ['ラストワン賞', true],
      ['口数の合計', true],
    ]);
    expect(result.ok).toBe(true);
    expect(result.stats).toEqual({
      totalLots: 20,
      drawnLots: 20,
      undrawnLots: 0,
      draws: 7,
      drawsOutOfOrder: 1,
      soldOut: true,
      kiribanReached: 0,
    });
  });

  it('passes an ended pack that did not sell out, with no ラストワン賞 given', () => {
    const reveal = fixture();
    reveal.draws = reveal.draws.slice(0, 5);
    const result = verifyReveal(reveal);
    expect(result.ok).toBe(true);
    expect(result.stats).toMatchObject({ drawnLots: 18, undrawnLots: 2, soldOut: false });
  });

  it('passes a pack without a last-one tier', () => {
    const tiers = [tier('a', 3), tier('b', 2)];
    const { seed, lots, commitment } = createPackCommitment({ gachaId: 'g', title: 't', pricePerDraw: 100, tiers });
    const reveal = buildPackReveal({
      gacha: { id: 'g', title: 't', pricePerDraw: 100 },
      tiers,
      commitment,
      committedAt: '2026-01-01T00:00:00Z',
      seed,
      lots,
      draws: [{ at: '2026-01-02T00:00:00Z', memberId: 'm1', positions: [1, 2, 3, 4, 5], lastOne: false }],
      revealSalt: generateSeed(),
      revealedAt: '2026-01-03T00:00:00Z',
    });
    expect(verifyReveal(reveal)).toMatchObject({ ok: true, stats: { soldOut: true } });
  });

  it('fails the commitment, and only it, when any character of the commitment changes', () => {
    fc.assert(
      fc.property(fc.nat({ max: 63 }), (index) => {
        const reveal = fixture();
        reveal.commitment =
          reveal.commitment.slice(0, index) + otherHex(reveal.commitment[index]) + reveal.commitment.slice(index + 1);
        expect(failedChecks(reveal)).toEqual([CHECK_NAMES.commitment]);
      }),
      { numRuns: propertyRuns(64) },
    );
    expect(failedChecks({ ...fixture(), commitment: FIXTURE_COMMITMENT.toUpperCase() })).toEqual([
      CHECK_NAMES.commitment,
    ]);
  });

  it('fails the commitment and the order when any character of the seed changes', () => {
    fc.assert(
      fc.property(fc.nat({ max: 63 }), fc.constantFrom(...'0123456789abcdefG '.split('')), (index, replacement) => {
        const reveal = fixture();
        fc.pre(reveal.seed[index] !== replacement);
        reveal.seed = reveal.seed.slice(0, index) + replacement + reveal.seed.slice(index + 1);
        expect(failedChecks(reveal)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order]);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('fails the commitment, the order and the counts when one byte of a lot changes', () => {
    fc.assert(
      fc.property(fc.nat({ max: 19 }), fc.nat(), fc.integer({ min: 0x21, max: 0x7e }), (position, at, byte) => {
        const reveal = fixture();
        const lot = reveal.lots[position];
        const index = at % lot.length;
        fc.pre(lot.charCodeAt(index) !== byte);
        reveal.lots[position] = lot.slice(0, index) + String.fromCharCode(byte) + lot.slice(index + 1);
        const failed = failedChecks(reveal);
        expect(failed).toContain(CHECK_NAMES.commitment);
        expect(failed).toContain(CHECK_NAMES.order);
        // A lot turned into another lot tier keeps the totals but breaks that tier's count; anything else is unknown.
        expect(failed).toContain(CHECK_NAMES.tiers);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('fails the commitment and the order, not the counts, when two different lots swap places', () => {
    const reveal = fixture();
    const s = reveal.lots.indexOf('tier-s');
    const c = reveal.lots.indexOf('tier-c');
    [reveal.lots[s], reveal.lots[c]] = [reveal.lots[c], reveal.lots[s]];
    expect(failedChecks(reveal)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order]);
  });

  it('fails the order even when the operator recomputes the commitment over a hand-made order', () => {
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
    expect(failedChecks(reveal)).toEqual([CHECK_NAMES.order]);
  });

  it('fails the commitment when one byte of any tier field changes', () => {
    const fields = ['id', 'label', 'cardName'] as const;
    fc.assert(
      fc.property(
        fc.nat({ max: 4 }),
        fc.constantFrom(...fields),
        fc.nat(),
        fc.integer({ min: 0x21, max: 0x7e }),
        (t, field, at, byte) => {
          const reveal = fixture();
          const value = reveal.tiers[t][field];
          const index = at % value.length;
          fc.pre(value.charCodeAt(index) !== byte);
          reveal.tiers[t][field] = value.slice(0, index) + String.fromCharCode(byte) + value.slice(index + 1);
          const failed = failedChecks(reveal);
          expect(failed).toContain(CHECK_NAMES.commitment);
          // A lot tier's new id no longer matches its lots; the last-one tier has no lots to disagree with.
          if (field === 'id' && !reveal.tiers[t].isLastOne) expect(failed).toContain(CHECK_NAMES.tiers);
          else expect(failed).toEqual([CHECK_NAMES.commitment]);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('fails the commitment (and the counts) when a tier number changes', () => {
    const reveal = fixture();
    reveal.tiers[1].conversionValue += 1;
    expect(failedChecks(reveal)).toEqual([CHECK_NAMES.commitment]);
    const quantity = fixture();
    quantity.tiers[1].quantity += 1;
    expect(failedChecks(quantity)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order, CHECK_NAMES.tiers]);
    const lastOne = fixture();
    lastOne.tiers[4].isLastOne = false;
    expect(failedChecks(lastOne)).toEqual(expect.arrayContaining([CHECK_NAMES.commitment, CHECK_NAMES.tiers]));
  });

  it('fails the commitment when a pack term changes', () => {
    expect(failedChecks({ ...fixture(), gacha: { ...fixture().gacha, title: `${fixture().gacha.title}!` } })).toEqual([
      CHECK_NAMES.commitment,
    ]);
    expect(failedChecks({ ...fixture(), gacha: { ...fixture().gacha, pricePerDraw: 499 } })).toEqual([
      CHECK_NAMES.commitment,
    ]);
    expect(failedChecks({ ...fixture(), gacha: { ...fixture().gacha, totalLots: 21 } })).toEqual([CHECK_NAMES.totals]);
  });

  it('fails the log for a position drawn twice, out of range, or missing numbers and times', () => {
    const twice = fixture();
    twice.draws[3].positions = [1];
    expect(failedChecks(twice)).toEqual([CHECK_NAMES.drawLog, CHECK_NAMES.lastOne, CHECK_NAMES.totals]);

    const outOfRange = fixture();
    outOfRange.draws[0].positions = [21];
    expect(failedChecks(outOfRange)).toEqual([CHECK_NAMES.drawLog, CHECK_NAMES.lastOne, CHECK_NAMES.totals]);

    const zero = fixture();
    zero.draws[0].positions = [0];
    expect(failedChecks(zero)).toContain(CHECK_NAMES.drawLog);

    const earlier = fixture();
    earlier.draws[4].at = '2026-11-22T10:00:00.000Z';
    expect(failedChecks(earlier)).toEqual([CHECK_NAMES.drawLog]);

    const beforeCommitment = fixture();
    beforeCommitment.draws[0].at = '2026-11-22T08:59:59.000Z';
    expect(failedChecks(beforeCommitment)).toEqual([CHECK_NAMES.drawLog]);

    const afterReveal = fixture();
    afterReveal.draws[6].at = '2026-11-22T13:00:00.000Z';
    expect(failedChecks(afterReveal)).toEqual([CHECK_NAMES.drawLog]);

    const gap = fixture();
    gap.draws[6].drawNo = 8;
    expect(failedChecks(gap)).toEqual([CHECK_NAMES.drawLog]);

    const notIso = fixture();
    notIso.draws[2].at = '22/11/2026';
    expect(failedChecks(notIso)).toEqual([CHECK_NAMES.drawLog]);

    const namedMember = fixture();
    namedMember.draws[2].member = 'alice@example.com';
    expect(failedChecks(namedMember)).toEqual([CHECK_NAMES.drawLog]);
  });

  it('fails the ラストワン賞 unless exactly the draw that took the final lot received it', () => {
    const none = fixture();
    none.draws[6].lastOne = false;
    expect(failedChecks(none)).toEqual([CHECK_NAMES.lastOne]);

    const wrongDraw = fixture();
    wrongDraw.draws[6].lastOne = false;
    wrongDraw.draws[0].lastOne = true;
    expect(failedChecks(wrongDraw)).toEqual([CHECK_NAMES.lastOne]);

    const two = fixture();
    two.draws[5].lastOne = true;
    expect(failedChecks(two)).toEqual([CHECK_NAMES.lastOne]);

    const notSoldOut = fixture();
    notSoldOut.draws = notSoldOut.draws.slice(0, 6);
    notSoldOut.draws[5].lastOne = true;
    expect(failedChecks(notSoldOut)).toEqual([CHECK_NAMES.lastOne]);

    const withoutTier = fixture();
    withoutTier.tiers = withoutTier.tiers.filter((t) => !t.isLastOne);
    expect(failedChecks(withoutTier)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.lastOne]);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(verifyReveal(value as PackReveal).ok).toBe(false);
      }),
      { numRuns: propertyRuns(100) },
    );
    const shapeOnly = { ...fixture(), seed: 7 } as unknown as PackReveal;
    expect(verifyReveal(shapeOnly).checks).toEqual([expect.objectContaining({ name: CHECK_NAMES.shape, ok: false })]);
    expect(verifyReveal({ ...fixture(), lots: [] }).ok).toBe(false);
    expect(verifyReveal({ ...fixture(), tiers: [] }).ok).toBe(false);
  });

  it('verifies a sold-out pack of 100,000 lots', () => {
    const tiers = [tier('s', 5), tier('a', 995), tier('c', 99_000), tier('last', 1, true)];
    const { seed, lots, commitment } = createPackCommitment({
      gachaId: 'big',
      title: '大量',
      pricePerDraw: 300,
      tiers,
    });
    const draws = Array.from({ length: 10_000 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 2) + i * 1000),
      memberId: `m${i % 97}`,
      positions: Array.from({ length: 10 }, (_, k) => i * 10 + k + 1),
      lastOne: i === 9_999,
    }));
    const reveal = buildPackReveal({
      gacha: { id: 'big', title: '大量', pricePerDraw: 300 },
      tiers,
      commitment,
      committedAt: '2026-01-01T00:00:00Z',
      seed,
      lots,
      draws,
      revealSalt: generateSeed(),
      revealedAt: '2026-02-01T00:00:00Z',
    });
    const result = verifyReveal(JSON.parse(JSON.stringify(reveal)));
    expect(result.ok).toBe(true);
    expect(result.stats).toMatchObject({ totalLots: 100_000, draws: 10_000, drawsOutOfOrder: 0, soldOut: true });
  });
});

describe('buildPackReveal', () => {
  it('numbers draws by time, anonymises members and sorts positions', () => {
    const reveal = fixture();
    const salt = seedFrom('build');
    const built = buildPackReveal({
      gacha: reveal.gacha,
      tiers: reveal.tiers,
      commitment: reveal.commitment,
      committedAt: new Date(reveal.committedAt),
      seed: reveal.seed,
      lots: reveal.lots,
      draws: [
        { at: '2026-11-22T21:00:00+09:00', memberId: 'later', positions: [20, 19], lastOne: true },
        {
          at: new Date('2026-11-22T10:00:00Z'),
          memberId: 'earlier',
          positions: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
          lastOne: false,
        },
      ],
      revealSalt: salt,
      revealedAt: reveal.revealedAt,
    });
    expect(built.draws.map((d) => [d.drawNo, d.member, d.at, d.positions])).toEqual([
      [1, anonymiseMember('earlier', salt), '2026-11-22T10:00:00.000Z', expect.any(Array)],
      [2, anonymiseMember('later', salt), '2026-11-22T12:00:00.000Z', [19, 20]],
    ]);
    expect(JSON.stringify(built)).not.toMatch(/earlier|later/);
    expect(verifyReveal(built).ok).toBe(true);
  });

  it('puts the ラストワン賞 draw last among draws claimed in the same millisecond', () => {
    const reveal = fixture();
    const at = '2026-11-22T10:00:00.000Z';
    const built = buildPackReveal({
      ...reveal,
      draws: [
        { at, memberId: 'final', positions: [20], lastOne: true },
        { at, memberId: 'other', positions: Array.from({ length: 19 }, (_, i) => i + 1), lastOne: false },
      ],
      revealSalt: seedFrom('tie'),
    });
    expect(built.draws.map((d) => d.lastOne)).toEqual([false, true]);
    expect(verifyReveal(built).ok).toBe(true);
  });
});

describe('キリ番賞', () => {
  it('commits to the numbers in a v2 document; packs without キリ番 keep the v1 bytes', () => {
    const tiers = kiribanTiers();
    const lots = canonicalLots(tiers);
    expect(lots).toHaveLength(10);
    expect(lots).not.toContain('k');
    const document = canonicalPackDocument({ gachaId: 'g', title: 't', pricePerDraw: 1, tiers, seed: ZERO_SEED, lots });
    expect(document.split('\n').slice(0, 7)).toEqual([
      'oripa-commitment-v2',
      'gacha 1:g 1:t 1 10',
      'tiers 4',
      'tier 1:a 4:a賞 11:カード a 3 100 0 0',
      'tier 1:b 4:b賞 11:カード b 7 100 0 0',
      'tier 1:k 12:キリ番賞 11:カード k 2 100 0 2 4 9',
      'tier 4:last 7:last賞 14:カード last 1 100 1 0',
    ]);
    const other = { gachaId: 'g', title: 't', pricePerDraw: 1, seed: ZERO_SEED, lots };
    const moved = tiers.map((t) => (t.id === 'k' ? { ...t, kiribanAt: [4, 8] } : t));
    expect(computeCommitment({ ...other, tiers: moved })).not.toBe(computeCommitment({ ...other, tiers }));
    expect(canonicalPackDocument({ ...other, tiers: [tier('a', 3), tier('b', 7)] })).toMatch(/^oripa-commitment-v1\n/);
  });

  it('refuses numbers without one canonical form', () => {
    const k = (kiribanAt: number[], quantity = kiribanAt.length) => ({ ...tier('k', quantity), kiribanAt });
    expect(() => canonicalLots([tier('a', 10), k([5, 3])])).toThrow(/ascending/);
    expect(() => canonicalLots([tier('a', 10), k([0])])).toThrow(/ascending/);
    expect(() => canonicalLots([tier('a', 10), k([3], 2)])).toThrow(/quantity/);
    expect(() => canonicalLots([tier('a', 10), k([10])])).toThrow(/below/);
    expect(() => canonicalLots([tier('a', 10), k([3]), { ...k([3]), id: 'k2' }])).toThrow(/twice/);
    expect(() => canonicalLots([tier('a', 10), { ...k([3]), isLastOne: true }])).toThrow(/last-one/);
  });

  it('passes a reveal whose キリ番 went to the draws that took those lots', () => {
    const reveal = kiribanReveal();
    expect(reveal.format).toBe('oripa-pack-reveal/2');
    expect(reveal.draws.map((d) => d.kiriban)).toEqual([[], [4], [9], []]);
    const result = verifyReveal(JSON.parse(JSON.stringify(reveal)));
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
      ['コミットメント一致', true],
      ['並び順とシードの一致', true],
      ['賞の数量', true],
      ['抽選ログ', true],
      ['ラストワン賞', true],
      ['口数の合計', true],
      ['キリ番賞', true],
    ]);
    expect(result.stats?.kiribanReached).toBe(2);
  });

  it('counts lots in log order, not positions: the 4th lot sold may sit at any position', () => {
    const reveal = kiribanReveal();
    // The same sale with the positions handed out out of order (a rolled-back claim, then the end).
    reveal.draws[0].positions = [1, 2, 5];
    reveal.draws[1].positions = [3, 6];
    reveal.draws[2].positions = [4, 7, 8, 10];
    reveal.draws[3].positions = [9];
    expect(verifyReveal(reveal).ok).toBe(true);
  });

  it('fails the キリ番 check, and only it, when an award is moved, doubled, invented or dropped', () => {
    const moved = kiribanReveal();
    moved.draws[1].kiriban = [];
    moved.draws[0].kiriban = [4];
    expect(failedChecks(moved)).toEqual([CHECK_NAMES.kiriban]);
    expect(verifyReveal(moved).checks.at(-1)?.detail).toContain(
      '4 口目のキリ番賞は 4 口目を引いた抽選 2 ではなく抽選 1',
    );
    const doubled = kiribanReveal();
    doubled.draws[0].kiriban = [4];
    expect(failedChecks(doubled)).toEqual([CHECK_NAMES.kiriban]);
    const invented = kiribanReveal();
    invented.draws[3].kiriban = [7];
    expect(failedChecks(invented)).toEqual([CHECK_NAMES.kiriban]);
    const dropped = kiribanReveal();
    dropped.draws[2].kiriban = [];
    expect(failedChecks(dropped)).toEqual([CHECK_NAMES.kiriban]);
  });

  it('fails when a number is not reached but awarded, and passes when it is neither', () => {
    const ended = kiribanReveal();
    ended.draws = ended.draws.slice(0, 2); // 5 lots sold: キリ番 9 not reached
    expect(verifyReveal(ended).ok).toBe(true);
    expect(verifyReveal(ended).stats?.kiribanReached).toBe(1);
    ended.draws[1].kiriban = [4, 9];
    expect(failedChecks(ended)).toEqual([CHECK_NAMES.kiriban]);
  });

  it('fails the commitment when the numbers are changed after publication', () => {
    const reveal = kiribanReveal();
    reveal.tiers = reveal.tiers.map((t) => (t.id === 'k' ? { ...t, kiribanAt: [4, 8] } : t));
    expect(failedChecks(reveal)).toContain(CHECK_NAMES.commitment);
  });
});
