// The fairness module's test kit: reveal fixtures shared by the commitment tests and the verify-pack script's
// tests; beacon packs' sales, logs and examples (testing/). Tests and benchmarks only.
import fs from 'node:fs';
import path from 'node:path';
import { buildPackReveal, createPackCommitment, type PackReveal, type PackTier } from './commitment';
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
