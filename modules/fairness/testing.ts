// The fairness module's test kit: reveal fixtures shared by the commitment tests and the verify-pack script's
// tests; beacon packs' sales, logs and examples (testing/). Tests and benchmarks only.
import fs from 'node:fs';
import path from 'node:path';
import { buildPackReveal, ceilingWalk, createPackCommitment, type PackReveal, type PackTier } from './commitment';
import { seedFrom } from './testing/beacon-sale';

export * from './testing/beacon-sale';
export * from './testing/beacon-examples';

/** A sold-out pack's reveal, checked in: a change to its bytes is a format change. */
export const FIXTURE_PATH = path.join(import.meta.dirname, 'fixtures', 'reveal-sold-out.json');

export const fixture = (): PackReveal => JSON.parse(fs.readFileSync(FIXTURE_PATH, 'utf8'));

export const tier = (id: string, quantity: number, isLastOne = false): PackTier => ({
  id,
  label: `${id}賞`,
  cardName: `カード ${id}`,
  quantity,
  conversionValue: 100,
  isLastOne,
});

// ── キリ番賞 (decision 027) ──────────────────────────────────────────────────────────────────────────
export const kiribanTiers = (): PackTier[] => [
  tier('a', 3),
  tier('b', 7),
  { ...tier('k', 2), label: 'キリ番賞', kiribanAt: [4, 9] },
  tier('last', 1, true),
];

/** A pack of 10 lots with キリ番 4 and 9: draws of 3, 2, 4 and 1 lots (the 2nd takes lot 4, the 3rd lot 9). */
export function kiribanReveal(): PackReveal {
  const tiers = kiribanTiers();
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

// ── 個人キリ番賞 and ピタリ賞 (decision 088) ──────────────────────────────────────────────────────────────
export const extrasTiers = (): PackTier[] => [
  tier('a', 3),
  tier('b', 7),
  { ...tier('pk', 7), label: '個人キリ番賞', personalKiribanAt: [2, 5] }, // ⌊10 ÷ 2⌋ + ⌊10 ÷ 5⌋ = 7
  { ...tier('pa', 1), label: 'ピタリ賞', pitariOf: 'a' },
  tier('last', 1, true),
];

/**
 * A pack of 10 lots (3 of tier a) with a 個人キリ番賞 on a member's 2nd and 5th lots and a ピタリ賞 for tier a:
 * m1 draws 3, m2 2, m1 4 and m2 the last 1 (m1's 2nd lot is in its 1st draw, its 5th in its 2nd; m2's 2nd in
 * its 1st). The ピタリ賞 goes to the draw holding the last lot of a in this order (it depends on the seed).
 */
export function extrasReveal(): PackReveal {
  const tiers = extrasTiers();
  const gacha = { id: 'g-extras', title: '個人キリ番・ピタリ賞テスト', pricePerDraw: 300 };
  const seed = seedFrom('extras');
  const { lots, commitment } = createPackCommitment({ gachaId: gacha.id, ...gacha, tiers }, seed);
  const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const draws = [
    { at: at(1), memberId: 'm1', positions: [1, 2, 3], lastOne: false, personalKiriban: [2] },
    { at: at(2), memberId: 'm2', positions: [4, 5], lastOne: false, personalKiriban: [2] },
    { at: at(3), memberId: 'm1', positions: [6, 7, 8, 9], lastOne: false, personalKiriban: [5] },
    { at: at(4), memberId: 'm2', positions: [10], lastOne: true, personalKiriban: [] as number[] },
  ];
  const lastOfA = lots.lastIndexOf('a') + 1;
  const emptier = draws.find((draw) => draw.positions.includes(lastOfA))!;
  return buildPackReveal({
    gacha,
    tiers,
    commitment,
    committedAt: at(0),
    seed,
    lots,
    draws: draws.map((draw) => ({ ...draw, pitari: draw === emptier ? ['a'] : [] })),
    revealSalt: seedFrom('extras-salt'),
    revealedAt: at(5),
  });
}

// ── 天井賞 (format v4) ────────────────────────────────────────────────────────────────────────────────
export const ceilingTiers = (): PackTier[] => [
  tier('s', 1),
  tier('a', 3),
  tier('c', 16),
  { ...tier('t', 5), label: '天井賞', ceilingAfter: 4, ceilingOf: ['a', 's'] }, // ⌊20 ÷ 4⌋ = 5
  tier('last', 1, true),
];

/** The draws of ceilingReveal, before their 天井賞 are counted: m1 2, m2 3, m1 3, m3 8, m2 3, m1 the last 1. */
export const CEILING_DRAWS = [
  { memberId: 'm1', positions: [1, 2] },
  { memberId: 'm2', positions: [3, 4, 5] },
  { memberId: 'm1', positions: [6, 7, 8] },
  { memberId: 'm3', positions: [9, 10, 11, 12, 13, 14, 15, 16] },
  { memberId: 'm2', positions: [17, 18, 19] },
  { memberId: 'm1', positions: [20] },
];

/**
 * A pack of 20 lots (s×1, a×3, c×16) with a 天井賞 after 4 lots in a row without A賞以上 (a or s), sold out by
 * CEILING_DRAWS; each draw's 天井賞 counted by ceilingWalk from its member's streak. The seed gives the lots
 * cccccacscccccccccaca: m1's streak of 2 is reset by its 2nd draw's a and s (a c s); m3's 8 lots win 2; m2's
 * streak of 3 from its 1st draw wins with the 1st lot of its 2nd (c a c). 天井賞: 0, 0, 0, 2, 1, 0.
 */
export function ceilingReveal(): PackReveal {
  const tiers = ceilingTiers();
  const gacha = { id: 'g-ceiling', title: '天井賞テスト', pricePerDraw: 300 };
  const seed = seedFrom('ceiling-265'); // lots cccccacscccccccccaca
  const { lots, commitment } = createPackCommitment({ gachaId: gacha.id, ...gacha, tiers }, seed);
  const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const streaks = new Map<string, number>();
  const draws = CEILING_DRAWS.map((draw, i) => {
    const walk = ceilingWalk(
      streaks.get(draw.memberId) ?? 0,
      draw.positions.map((p) => lots[p - 1]),
      4,
      ['a', 's'],
    );
    streaks.set(draw.memberId, walk.streak);
    return { ...draw, at: at(i + 1), lastOne: i === CEILING_DRAWS.length - 1, ceiling: walk.won };
  });
  return buildPackReveal({
    gacha,
    tiers,
    commitment,
    committedAt: at(0),
    seed,
    lots,
    draws,
    revealSalt: seedFrom('ceiling-salt'),
    revealedAt: at(CEILING_DRAWS.length + 1),
  });
}

/**
 * docs/formats/examples' 天井賞 files, as formats-examples.test.ts holds them (WRITE_FORMAT_EXAMPLES=1 rewrites
 * them): ceilingReveal, and the same with one of m3's two 天井賞 given to m1's last draw.
 */
export function ceilingExampleFiles(): { file: string; description: string; exit: 0 | 1; json: PackReveal }[] {
  const moved = ceilingReveal();
  moved.draws[3].ceiling = 1;
  moved.draws[5].ceiling = 1;
  return [
    {
      file: 'v4-ceiling.json',
      description:
        'v4, a 天井賞 after 4 lots in a row without a or s in a 20-lot pack: m1 draws 2, m2 3, m1 3, m3 8, m2 3, m1 1; m3 wins 2, m2 1 with its streak of 3 from its first draw, m1 none (its a and s reset it)',
      exit: 0,
      json: ceilingReveal(),
    },
    {
      file: 'tampered-ceiling-moved.json',
      description: "one of m3's two 天井賞 (its 8 lots without a or s) given to m1's last draw",
      exit: 1,
      json: moved,
    },
  ];
}
