// Computing the fraud signals (docs/decisions/029), by the job `risk.signals` every few minutes and
// never on a page load. Each feed is read from a watermark (sessions, address books, chargebacks), or
// over the last 24 hours (velocity); every write is an upsert keyed by (kind, member, key), so a
// re-run, an overlap or two instances at once raise each signal once and only refresh its evidence.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sessionsStartedSince } from '#modules/identity';
import { addressesChangedSince, type AddressKeyring } from '#modules/shipping';
import { drawVelocitySince } from '#modules/draw';
import { chargebacksSince, spendVelocitySince } from '#modules/payments';
import { fingerprint, normaliseAddress, normaliseDevice, normalisePhone } from './fingerprints';
import { fraudSignals, riskFingerprints, riskWatermarks, type FingerprintKind, type SignalKind } from './schema';

/** The thresholds (settings RISK_*) and the fingerprint key. */
export interface RiskRules {
  /** Lots drawn in 24 hours at or above which a member is flagged. */
  drawsPer24h: number;
  /** Coins spent on draws in 24 hours at or above which a member is flagged. */
  coinsPer24h: number;
  /** Yen of purchases credited in 24 hours at or above which a member is flagged. */
  spendJpyPer24h: number;
  /** Accounts on one device (client address and browser) at or above which each is flagged. */
  accountsPerDevice: number;
  /** Accounts with one shipping address at or above which each is flagged. */
  accountsPerAddress: number;
  /** Accounts with one phone number (in their addresses) at or above which each is flagged. */
  accountsPerPhone: number;
  fingerprintKey: Buffer;
  addressKeyring: AddressKeyring;
}

/** How far back a feed re-reads on each run: a row committed late with an earlier time is still seen. */
const OVERLAP_MS = 5 * 60_000;
const BATCH = 500;
/** At most this many batches per feed per run; the next run goes on from the watermark. */
const MAX_BATCHES = 20;
const DAY_MS = 86_400_000;
/** The members named in a shared-* signal's evidence, at most. */
const MEMBERS_SHOWN = 20;

const SHARED_KIND: Record<FingerprintKind, SignalKind> = {
  device: 'shared_device',
  address: 'shared_address',
  phone: 'shared_phone',
};

/** The JST calendar day of an instant, 2026-11-24. */
export const jstDay = (at: Date) => new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);

async function watermarkOf(db: Database, name: string): Promise<{ at: Date; id: string }> {
  const [row] = await db.select().from(riskWatermarks).where(eq(riskWatermarks.name, name));
  return row ? { at: new Date(row.at.getTime() - OVERLAP_MS), id: '' } : { at: new Date(0), id: '' };
}

async function saveWatermark(db: Database, name: string, at: Date, id: string) {
  await db
    .insert(riskWatermarks)
    .values({ name, at, id })
    .onConflictDoUpdate({
      target: riskWatermarks.name,
      set: { at: sql`greatest(${riskWatermarks.at}, excluded.at)`, id: sql`excluded.id` },
    });
}

interface Sighting {
  kind: FingerprintKind;
  keyHash: string;
  memberId: string;
  label: string | null;
  at: Date;
}

async function recordSightings(db: Database, sightings: Sighting[]) {
  if (sightings.length === 0) return;
  // One row per (kind, key, member) in a statement: Postgres refuses to upsert the same row twice.
  const unique = new Map<string, Sighting>();
  for (const s of sightings) {
    const id = `${s.kind}|${s.keyHash}|${s.memberId}`;
    const seen = unique.get(id);
    if (!seen || seen.at < s.at) unique.set(id, s);
  }
  await db
    .insert(riskFingerprints)
    .values([...unique.values()].map((s) => ({ ...s, firstSeen: s.at, lastSeen: s.at })))
    .onConflictDoUpdate({
      target: [riskFingerprints.kind, riskFingerprints.keyHash, riskFingerprints.memberId],
      set: {
        lastSeen: sql`greatest(${riskFingerprints.lastSeen}, excluded.last_seen)`,
        firstSeen: sql`least(${riskFingerprints.firstSeen}, excluded.first_seen)`,
        label: sql`coalesce(excluded.label, ${riskFingerprints.label})`,
      },
    });
}

/** Raises or refreshes one signal; a cleared shared-* signal opens again when more accounts share the key. */
async function upsertSignal(
  db: Database,
  signal: { kind: SignalKind; memberId: string; key: string; evidence: Record<string, unknown>; at: Date },
): Promise<void> {
  await db
    .insert(fraudSignals)
    .values({
      kind: signal.kind,
      memberId: signal.memberId,
      key: signal.key,
      evidence: signal.evidence,
      firstSeen: signal.at,
      lastSeen: signal.at,
    })
    .onConflictDoUpdate({
      target: [fraudSignals.kind, fraudSignals.memberId, fraudSignals.key],
      set: {
        evidence: sql`excluded.evidence`,
        lastSeen: sql`greatest(${fraudSignals.lastSeen}, excluded.last_seen)`,
        status: sql`case when ${fraudSignals.status} = 'cleared'
          and ${fraudSignals.kind} in ('shared_device', 'shared_address', 'shared_phone')
          and coalesce((excluded.evidence->>'count')::numeric, 0) > coalesce((${fraudSignals.evidence}->>'count')::numeric, 0)
          then 'open' else ${fraudSignals.status} end`,
      },
    });
}

/** Raises the shared-* signals of the fingerprints touched: each key held by enough members. */
async function raiseShared(db: Database, rules: RiskRules, touched: Map<string, FingerprintKind>, now: Date) {
  const minimum: Record<FingerprintKind, number> = {
    device: rules.accountsPerDevice,
    address: rules.accountsPerAddress,
    phone: rules.accountsPerPhone,
  };
  let raised = 0;
  for (const [keyHash, kind] of touched) {
    const holders = await db
      .select()
      .from(riskFingerprints)
      .where(and(eq(riskFingerprints.kind, kind), eq(riskFingerprints.keyHash, keyHash)))
      .orderBy(riskFingerprints.firstSeen);
    if (holders.length < minimum[kind]) continue;
    const members = holders.map((h) => h.memberId);
    const label = holders.find((h) => h.label)?.label ?? null;
    for (const holder of holders) {
      await upsertSignal(db, {
        kind: SHARED_KIND[kind],
        memberId: holder.memberId,
        key: keyHash,
        evidence: {
          count: holders.length,
          members: members.slice(0, MEMBERS_SHOWN),
          ...(label ? { label } : {}),
          firstSeen: holders[0]!.firstSeen.toISOString(),
        },
        at: now,
      });
      raised += 1;
    }
  }
  return raised;
}

/** Sessions since the watermark: one device fingerprint per (client address, browser). */
async function readSessions(db: Database, rules: RiskRules, touched: Map<string, FingerprintKind>) {
  let cursor = await watermarkOf(db, 'sessions');
  let read = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const batch = await sessionsStartedSince(db, cursor, BATCH);
    const sightings: Sighting[] = [];
    for (const s of batch) {
      if (!s.ipAddress || !s.userAgent) continue;
      const keyHash = fingerprint(rules.fingerprintKey, 'device', normaliseDevice(s.ipAddress, s.userAgent));
      touched.set(keyHash, 'device');
      sightings.push({
        kind: 'device',
        keyHash,
        memberId: s.memberId,
        label: `${s.ipAddress}・${s.userAgent.slice(0, 120)}`,
        at: s.createdAt,
      });
    }
    await recordSightings(db, sightings);
    read += batch.length;
    const last = batch.at(-1);
    if (!last) break;
    cursor = { at: last.createdAt, id: last.id };
    await saveWatermark(db, 'sessions', last.createdAt, last.id);
    if (batch.length < BATCH) break;
  }
  return read;
}

/** Address books since the watermark: an address and a phone fingerprint per address. */
async function readAddresses(db: Database, rules: RiskRules, touched: Map<string, FingerprintKind>) {
  let cursor = await watermarkOf(db, 'addresses');
  let read = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const { items, last, rows } = await addressesChangedSince(db, rules.addressKeyring, cursor, BATCH);
    const sightings: Sighting[] = [];
    for (const a of items) {
      const address = fingerprint(rules.fingerprintKey, 'address', normaliseAddress(a.fields));
      touched.set(address, 'address');
      sightings.push({ kind: 'address', keyHash: address, memberId: a.memberId, label: null, at: a.updatedAt });
      const digits = normalisePhone(a.fields.phone);
      if (digits.length >= 10) {
        const phone = fingerprint(rules.fingerprintKey, 'phone', digits);
        touched.set(phone, 'phone');
        sightings.push({ kind: 'phone', keyHash: phone, memberId: a.memberId, label: null, at: a.updatedAt });
      }
    }
    await recordSightings(db, sightings);
    read += items.length;
    if (!last) break;
    cursor = last;
    await saveWatermark(db, 'addresses', last.at, last.id);
    if (rows < BATCH) break;
  }
  return read;
}

/** Chargebacks since the watermark: one signal per charged-back order. */
async function readChargebacks(db: Database, now: Date) {
  let cursor = await watermarkOf(db, 'chargebacks');
  let raised = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const batch = await chargebacksSince(db, cursor, BATCH);
    for (const c of batch) {
      await upsertSignal(db, {
        kind: 'chargeback',
        memberId: c.memberId,
        key: c.orderId,
        evidence: {
          count: 1,
          orderId: c.orderId,
          receiptNo: c.receiptNo,
          amountJpy: c.amountJpy,
          method: c.method,
          unrecoveredCoins: c.unrecoveredCoins,
          at: c.at.toISOString(),
        },
        at: now,
      });
      raised += 1;
    }
    const last = batch.at(-1);
    if (!last) break;
    cursor = { at: last.at, id: last.orderId };
    await saveWatermark(db, 'chargebacks', last.at, last.orderId);
    if (batch.length < BATCH) break;
  }
  return raised;
}

/** Draws and purchases over the last 24 hours above the thresholds: one signal per member and JST day. */
async function readVelocity(db: Database, rules: RiskRules, now: Date) {
  const since = new Date(now.getTime() - DAY_MS);
  const day = jstDay(now);
  let raised = 0;
  for (const v of await drawVelocitySince(db, since, { minDraws: rules.drawsPer24h, minCoins: rules.coinsPer24h })) {
    await upsertSignal(db, {
      kind: 'velocity_draws',
      memberId: v.memberId,
      key: day,
      evidence: {
        count: v.draws,
        draws: v.draws,
        coins: v.coins,
        thresholdDraws: rules.drawsPer24h,
        thresholdCoins: rules.coinsPer24h,
        since: since.toISOString(),
      },
      at: now,
    });
    raised += 1;
  }
  for (const v of await spendVelocitySince(db, since, rules.spendJpyPer24h)) {
    await upsertSignal(db, {
      kind: 'velocity_spend',
      memberId: v.memberId,
      key: day,
      evidence: {
        count: v.amountJpy,
        amountJpy: v.amountJpy,
        orders: v.orders,
        thresholdJpy: rules.spendJpyPer24h,
        since: since.toISOString(),
      },
      at: now,
    });
    raised += 1;
  }
  return raised;
}

export interface SignalRun {
  sessions: number;
  addresses: number;
  shared: number;
  velocity: number;
  chargebacks: number;
}

/**
 * One run of the signals job: reads each feed from its watermark, keeps the fingerprints, and raises
 * or refreshes the signals. Safe to repeat and to run on two instances at once.
 * @example await computeSignals(db, rules, new Date())
 */
export async function computeSignals(db: Database, rules: RiskRules, now = new Date()): Promise<SignalRun> {
  const touched = new Map<string, FingerprintKind>();
  const sessions = await readSessions(db, rules, touched);
  const addresses = await readAddresses(db, rules, touched);
  const shared = await raiseShared(db, rules, touched, now);
  const velocity = await readVelocity(db, rules, now);
  const chargebacks = await readChargebacks(db, now);
  return { sessions, addresses, shared, velocity, chargebacks };
}
