// The phone's checks of one beacon draw (decision 081, §5) on a sale simulated with real signatures and the drand
// stand-in's real BLS beacons: a genuine draw passes every check, its lots recomputed from the pack's public draw
// log; each forgery or late observation fails (or stays unchecked) on the check that names it, with its Japanese
// detail; the lots wait for the log and say so when it cannot be read.
import { describe, expect, it } from 'vitest';
import { receiptPublicKey, signReceipt } from './beacon-mode';
import type { BeaconLog } from './beacon-log';
import { checkBeaconDraw, type BeaconDrawEvidence } from './beacon-draw-check';
import { atRound, beaconExample, drawEvidence, drawId, exampleChain, liveBeaconExample } from './testing';

const chain = exampleChain();
const ms = (iso: string) => Date.parse(iso);
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/**
 * The example sale's third draw (2 lots, round 1003, its head closed late so settled with round 1004): the proof
 * the page gets, the tiers it shows, the pack's log, and what a phone that drew saw, in time.
 */
function genuine() {
  const log = beaconExample();
  const id = drawId(3);
  const evidence = drawEvidence(log, id);
  const won = log.items.find((e) => e.receipt.drawId === id)!.tiers!;
  const seen = { receiptReceivedAt: ms(atRound(1003, -1900)), headReceivedAt: ms(atRound(1003, 200)) };
  return { log, id, evidence, won, seen };
}

/** The stand-in's chain is trusted here as a sandbox shop trusts it (named for what it is). */
const alsoTrust = [{ ...chain.info, label: 'テスト用の代役' }];
const states = (checks: ReturnType<typeof checkBeaconDraw>) => Object.fromEntries(checks.map((c) => [c.name, c.state]));
const lotsOf = (checks: ReturnType<typeof checkBeaconDraw>) => checks.find((c) => c.name === 'lots')!;

describe('the phone checks a beacon draw', () => {
  it('passes every check for a genuine draw seen in time, its lots recomputed from the public log', () => {
    const { evidence, won, seen, log } = genuine();
    const checks = checkBeaconDraw(evidence, seen, won, { alsoTrust, log });
    expect(checks.filter((c) => c.state !== 'ok')).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual([
      'commitment',
      'source',
      'signature',
      'receivedInTime',
      'chain',
      'headInTime',
      'beacon',
      'lots',
    ]);
    // The recomputation names the log and what the earlier draws left (4 lots settled before this head).
    expect(lotsOf(checks).detail).toContain('公開抽選ログ');
    expect(lotsOf(checks).detail).toContain('前に精算された 4 口');
  });

  it('fails the check that names each forgery of the proof', () => {
    const { evidence, won, seen, log } = genuine();
    const other = chain.beacon(1004, 'other-key');
    const cases: [string, BeaconDrawEvidence, string[]][] = [
      ['commitment', { ...evidence, terms: { ...evidence.terms, pricePerDraw: 499 } }, won],
      ['signature', { ...evidence, signature: signReceipt(evidence.receipt, '1'.repeat(64)) }, won],
      ['chain', { ...evidence, head: { ...evidence.head!, receiptHashes: [] } }, won],
      [
        'beacon',
        {
          ...evidence,
          settlement: { beacon: { round: 1004, signature: other.signature, randomness: other.randomness } },
        },
        won,
      ],
      ['headInTime', { ...evidence, head: { ...evidence.head!, publishedAt: atRound(1003, -2500) } }, won],
    ];
    for (const [name, forged, tiers] of cases) {
      const found = checkBeaconDraw(forged, seen, tiers, { alsoTrust, log }).find((c) => c.name === name)!;
      expect(found.state, `${name}: ${found.detail}`).toBe('failed');
      expect(found.detail).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
  });

  it('fails あなたの当選の再計算 alone when the page shows tiers the public log does not give', () => {
    const { evidence, won, seen, log } = genuine();
    const shown = won.map((t) => (t === 'S' ? 'B' : 'S'));
    const checks = checkBeaconDraw(evidence, seen, shown, { alsoTrust, log });
    expect(checks.filter((c) => c.state === 'failed').map((c) => c.name)).toEqual(['lots']);
    expect(lotsOf(checks).detail).toContain('表示されている結果と一致しません');
  });

  it('fails the recomputation when the public log disagrees with what this phone was given', () => {
    const { evidence, won, seen, log, id } = genuine();
    const tamper = (change: (out: BeaconLog) => void) => {
      const out = copy(log);
      change(out);
      return out;
    };
    const cases: [string, BeaconLog, RegExp][] = [
      [
        // An earlier draw's result rewritten: what remained before this head is not what the beacon was applied to.
        'earlier result',
        tamper((out) => (out.items[0]!.tiers = ['S', 'S', 'S'])),
        /抽選結果の再計算|一致しません/,
      ],
      [
        // The log holds another receipt under this draw's id than the one the phone received.
        'other receipt',
        tamper((out) => {
          const entry = out.items.find((e) => e.receipt.drawId === id)!;
          entry.receipt.member = '0000000000000000';
        }),
        /抽選の応答で受け取った受付票と違います/,
      ],
      [
        // The log's head for the round is not the head the page showed.
        'other head',
        tamper((out) => (out.heads.find((h) => h.round === 1003)!.head = 'f'.repeat(64))),
        /ヘッド/,
      ],
      [
        'the draw missing',
        tamper((out) => (out.items = out.items.filter((e) => e.receipt.drawId !== id))),
        /ありません/,
      ],
    ];
    for (const [name, tampered, detail] of cases) {
      const lots = lotsOf(checkBeaconDraw(evidence, seen, won, { alsoTrust, log: tampered }));
      expect(lots.state, `${name}: ${lots.detail}`).toBe('failed');
      expect(lots.detail, name).toMatch(detail);
    }
  });

  it('leaves the recomputation unchecked, saying why, while the log loads or when it cannot be read', () => {
    const { evidence, won, seen } = genuine();
    const loading = lotsOf(checkBeaconDraw(evidence, seen, won, { alsoTrust }));
    expect(loading).toMatchObject({ state: 'unchecked' });
    expect(loading.detail).toContain('読み込んで');
    const offline = lotsOf(checkBeaconDraw(evidence, seen, won, { alsoTrust, log: { unavailable: '通信できません' } }));
    expect(offline).toMatchObject({ state: 'unchecked' });
    expect(offline.detail).toContain('通信できません');
    expect(offline.detail).toContain('再読み込み');
  });

  it('trusts no chain but quicknet unless told: a chain whose key the shop could hold fails 乱数の出どころ', () => {
    const { evidence, won, seen, log } = genuine();
    const untrusted = checkBeaconDraw(evidence, seen, won, { log });
    expect(states(untrusted).source).toBe('failed');
    expect(untrusted.find((c) => c.name === 'source')!.detail).toContain('quicknet');
    // The log's own source check fails the same way: nothing is recomputed on randomness from an untrusted chain.
    expect(states(untrusted).lots).toBe('failed');
    const trusted = checkBeaconDraw(evidence, seen, won, { alsoTrust, log });
    expect(trusted.find((c) => c.name === 'source')!.detail).toContain('テスト用の代役');
  });

  it('does not claim what this phone did not see: a late or absent observation is unchecked, with the reason', () => {
    const { evidence, won, log } = genuine();
    const late = checkBeaconDraw(evidence, { receiptReceivedAt: ms(atRound(1003, 10)), headReceivedAt: null }, won, {
      alsoTrust,
      log,
    });
    // Late is not proof of tampering (a slow network or phone): this phone cannot vouch for it, and says why.
    expect(states(late)).toMatchObject({ receivedInTime: 'unchecked', headInTime: 'unchecked', lots: 'ok' });
    expect(late.find((c) => c.name === 'receivedInTime')!.detail).toContain('このスマホでは確かめられません');
    const elsewhere = checkBeaconDraw(evidence, { receiptReceivedAt: null, headReceivedAt: null }, won, {
      alsoTrust,
      log,
    });
    expect(states(elsewhere)).toMatchObject({ receivedInTime: 'unchecked', headInTime: 'unchecked', lots: 'ok' });
  });

  it('while waiting, checks what exists and leaves the rest unchecked', () => {
    const live = liveBeaconExample();
    // The live sale's last draw has no head yet; its third is in a closed head still waiting for its beacon.
    const pending = drawEvidence(live, live.pending[0]!.receipt.drawId);
    const seen = { receiptReceivedAt: ms(live.pending[0]!.receipt.acceptedAt) + 100, headReceivedAt: null };
    expect(states(checkBeaconDraw(pending, seen, [], { alsoTrust }))).toEqual({
      commitment: 'ok',
      source: 'ok',
      signature: 'ok',
      receivedInTime: 'ok',
      chain: 'unchecked',
      headInTime: 'unchecked',
      beacon: 'unchecked',
      lots: 'unchecked',
    });
    const closed = drawEvidence(live, drawId(3));
    const waiting = checkBeaconDraw(
      closed,
      { receiptReceivedAt: ms(atRound(1003, -1900)), headReceivedAt: ms(atRound(1003, 200)) },
      [],
      { alsoTrust, log: live },
    );
    expect(states(waiting)).toMatchObject({ chain: 'ok', headInTime: 'ok', beacon: 'unchecked', lots: 'unchecked' });
    expect(closed.terms.receiptKey).toBe(
      receiptPublicKey('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
    );
  });
});
