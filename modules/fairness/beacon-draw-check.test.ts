// The phone's checks of one beacon draw (decision 081, §5) on real BLS beacons of the drand stand-in's chain:
// a genuine draw passes every check; each forgery or late observation fails (or stays unchecked) on the check
// that names it, with its Japanese detail.
import { describe, expect, it } from 'vitest';
import { drandChain } from '#devtools/standins/drand';
import {
  beaconCommitment,
  headHash,
  receiptHash,
  receiptPublicKey,
  settleDraws,
  signReceipt,
  type BeaconPackTerms,
  type DrawReceipt,
} from './beacon-mode';
import { checkBeaconDraw, type BeaconDrawEvidence } from './beacon-draw-check';

const SECRET = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb';
const chain = drandChain({ seed: 'phone-checks', period: 3, genesisTime: 1_700_000_000, beaconId: 'test' });
const ROUND = 1000;
const roundTime = (r: number) => (1_700_000_000 + (r - 1) * 3) * 1000;

const terms: BeaconPackTerms = {
  gachaId: 'pack-1',
  title: 'テスト',
  pricePerDraw: 100,
  tiers: [
    { id: 'pack-1.A', label: 'A賞', cardName: 'A', quantity: 2, conversionValue: 1000, isLastOne: false },
    { id: 'pack-1.B', label: 'B賞', cardName: 'B', quantity: 8, conversionValue: 10, isLastOne: false },
  ],
  beacon: {
    chainHash: chain.info.hash,
    scheme: chain.info.schemeID,
    publicKey: chain.info.public_key,
    genesisTime: chain.info.genesis_time,
    period: chain.info.period,
  },
  receiptKey: receiptPublicKey(SECRET),
  certificates: [],
};

function genuine() {
  const commitment = beaconCommitment(terms);
  const other: DrawReceipt = {
    gachaId: 'pack-1',
    commitment,
    drawId: 'draw-other',
    member: '0123456789abcdef',
    slots: [1],
    acceptedAt: new Date(roundTime(ROUND) - 2500).toISOString(),
    round: ROUND,
    afterHead: '',
    afterRound: 0,
  };
  const receipt: DrawReceipt = { ...other, drawId: 'draw-mine', member: 'fedcba9876543210', slots: [2, 3] };
  const hashes = [receiptHash(other), receiptHash(receipt)];
  const head = headHash('', ROUND, hashes);
  const beacon = chain.beacon(ROUND);
  const remainingBefore = [
    { id: 'pack-1.A', remaining: 2 },
    { id: 'pack-1.B', remaining: 8 },
  ];
  const draws = [
    { drawId: 'draw-other', n: 1 },
    { drawId: 'draw-mine', n: 2 },
  ];
  const evidence: BeaconDrawEvidence = {
    receipt,
    signature: signReceipt(receipt, SECRET),
    terms,
    head: {
      round: ROUND,
      head,
      prevHead: '',
      publishedAt: new Date(roundTime(ROUND) - 900).toISOString(),
      settleRound: ROUND,
      receiptHashes: hashes,
    },
    path: [{ round: ROUND, head, prevHead: '' }],
    settlement: {
      beacon: { round: ROUND, signature: beacon.signature, randomness: beacon.randomness },
      remainingBefore,
      draws,
    },
  };
  const won = settleDraws(beacon.randomness, 'pack-1', remainingBefore, draws).tiers[1]!;
  const seen = { receiptReceivedAt: roundTime(ROUND) - 2400, headReceivedAt: roundTime(ROUND) - 800 };
  return { evidence, won, seen };
}

/** The stand-in's chain is trusted here as a sandbox shop trusts it (named for what it is). */
const alsoTrust = [{ ...chain.info, label: 'テスト用の代役' }];
const check = (...args: Parameters<typeof checkBeaconDraw>) =>
  checkBeaconDraw(args[0], args[1], args[2], args[3] ?? { alsoTrust });

const states = (checks: ReturnType<typeof checkBeaconDraw>) => Object.fromEntries(checks.map((c) => [c.name, c.state]));

describe('the phone checks a beacon draw', () => {
  it('passes every check for a genuine draw seen in time', () => {
    const { evidence, won, seen } = genuine();
    const checks = check(evidence, seen, won);
    expect(checks.filter((c) => c.state !== 'ok')).toEqual([]);
    expect(checks.map((c) => c.label)).toContain('あなたの当選の再計算');
  });

  it('fails the check that names each forgery', () => {
    const { evidence, won, seen } = genuine();
    const other = chain.beacon(ROUND + 1);
    const cases: [string, BeaconDrawEvidence, string[], string][] = [
      ['commitment', { ...evidence, terms: { ...terms, pricePerDraw: 99 } }, won, 'failed'],
      ['signature', { ...evidence, signature: signReceipt(evidence.receipt, '1'.repeat(64)) }, won, 'failed'],
      [
        'chain',
        { ...evidence, head: { ...evidence.head!, receiptHashes: [evidence.head!.receiptHashes[0]!] } },
        won,
        'failed',
      ],
      [
        'beacon',
        {
          ...evidence,
          settlement: {
            ...evidence.settlement!,
            beacon: { round: ROUND, signature: other.signature, randomness: other.randomness },
          },
        },
        won,
        'failed',
      ],
      ['lots', evidence, won.map(() => 'pack-1.A'), 'failed'],
      [
        'headInTime',
        { ...evidence, head: { ...evidence.head!, publishedAt: new Date(roundTime(ROUND) - 10).toISOString() } },
        won,
        'failed',
      ],
    ];
    for (const [name, forged, tiers, state] of cases) {
      const found = check(forged, seen, tiers).find((c) => c.name === name)!;
      expect(found.state, `${name}: ${found.detail}`).toBe(state);
      expect(found.detail).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
    // A wrong tier leaves the other checks standing: each forgery names only its own check.
    const lotsOnly = check(
      evidence,
      seen,
      won.map(() => 'pack-1.A'),
    );
    expect(won.every((t) => t === 'pack-1.A')).toBe(false);
    expect(lotsOnly.filter((c) => c.state === 'failed').map((c) => c.name)).toEqual(['lots']);
  });

  it('trusts no chain but quicknet unless told: a chain whose key the shop could hold fails 乱数の出どころ', () => {
    const { evidence, won, seen } = genuine();
    const untrusted = checkBeaconDraw(evidence, seen, won);
    expect(untrusted.filter((c) => c.state === 'failed').map((c) => c.name)).toEqual(['source']);
    expect(untrusted.find((c) => c.name === 'source')!.detail).toContain('quicknet');
    expect(check(evidence, seen, won).find((c) => c.name === 'source')!.detail).toContain('テスト用の代役');
  });

  it('does not claim what this phone did not see: a late or absent observation is failed or unchecked', () => {
    const { evidence, won } = genuine();
    const late = check(evidence, { receiptReceivedAt: roundTime(ROUND) + 10, headReceivedAt: null }, won);
    expect(states(late)).toMatchObject({ receivedInTime: 'failed', headInTime: 'unchecked', lots: 'ok' });
    const elsewhere = check(evidence, { receiptReceivedAt: null, headReceivedAt: null }, won);
    expect(states(elsewhere)).toMatchObject({ receivedInTime: 'unchecked', headInTime: 'unchecked' });
  });

  it('while waiting, checks what exists and leaves the rest unchecked', () => {
    const { evidence, seen } = genuine();
    const waiting = check({ ...evidence, head: null, path: [], settlement: null }, seen, []);
    expect(states(waiting)).toEqual({
      commitment: 'ok',
      source: 'ok',
      signature: 'ok',
      receivedInTime: 'ok',
      chain: 'unchecked',
      headInTime: 'unchecked',
      beacon: 'unchecked',
      lots: 'unchecked',
    });
  });
});
