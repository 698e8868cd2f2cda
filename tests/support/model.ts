// A plain in-memory model of the wallet and the draw (docs/product.md: Coins, Drawing, Prizes won),
// written from the product rules and not from the SQL, for the property tests in
// modules/draw/properties.db.test.ts. Times are epoch milliseconds; coins are integers.
//
// What the model cannot know in advance is which tier a lot holds (the order is fixed by a secret
// seed): the runner tells it the prizes the shop reported, and the model checks that they fit
// (each tier's count, distinct positions) before recording them.

import { ceilingWalk } from '#modules/fairness';

export type CoinKind = 'paid' | 'free';
export type PrizeStatus = 'pending' | 'kept' | 'converted' | 'shipping';

export const DAY = 86_400_000;
export const PRIZE_DECISION_MS = 14 * DAY;
export const FREE_COIN_MS = 90 * DAY;
export const PAID_COIN_MS = 180 * DAY;
export const EXPIRING_SOON_MS = 30 * DAY;
/** A kept prize's storage period (KEPT_PRIZE_STORAGE_DAYS): then the deadline job converts it. */
export const KEPT_PRIZE_STORAGE_MS = 60 * DAY;

export interface ModelGrant {
  /** Creation order (the tie-break after the dates). */
  seq: number;
  kind: CoinKind;
  amount: number;
  remaining: number;
  grantedAt: number;
  expiresAt: number;
}

export interface ModelMember {
  id: string;
  staff: boolean;
  grants: ModelGrant[];
  exp: number;
  /** Signed ledger sums by `${reason}:${kind}`. */
  ledger: Map<string, number>;
  /** Stored draws by idempotency key (refused ones too: a retry gets the same answer). */
  draws: Map<string, ModelDraw>;
}

export interface ModelTier {
  id: string;
  quantity: number;
  conversionValue: number;
  isLastOne: boolean;
  /** A キリ番賞 (decision 027): the lot numbers, in sale order, that win it. */
  kiribanAt?: number[];
  /** A 天井賞 (decision 089): the lots in a row without one of `ceilingOf` (tier ids) that win it. */
  ceilingAfter?: number;
  ceilingOf?: string[];
  /** Lots of this tier drawn so far (the ラストワン賞: 1 once awarded; a キリ番賞: numbers awarded). */
  won: number;
}

export interface ModelPack {
  id: string;
  price: number;
  drawOptions: number[];
  total: number;
  remaining: number;
  soldOut: boolean;
  tiers: ModelTier[];
  takenPositions: Set<number>;
  /** 天井賞 (decision 089): each member's lots since their last hit or 天井賞, and the 天井賞 they were given. */
  ceilingStreaks: Map<string, number>;
  ceilingsGiven: Map<string, number>;
}

export interface ModelPrize {
  id: string;
  memberId: string;
  drawId: string;
  gachaId: string;
  tierId: string;
  position: number | null;
  conversionValue: number;
  isLastOne: boolean;
  /** A キリ番賞's number, else null. */
  kiriban: number | null;
  /** A 天井賞's number among the member's in the pack, else null. */
  ceilingNo: number | null;
  status: PrizeStatus;
  decideBy: number;
  /** Set when first kept: the end of its storage (keeping again does not extend it). */
  keepUntil: number | null;
  createdAt: number;
}

export type ModelDraw =
  | {
      key: string;
      gachaId: string;
      count: number;
      status: 'completed';
      drawId: string;
      cost: number;
      lastOne: boolean;
      kiriban: number[];
      prizeIds: string[];
    }
  | {
      key: string;
      gachaId: string;
      count: number;
      status: 'refused';
      drawId: string;
      code: string;
      details: Record<string, unknown>;
    };

/** What a draw request should do, decided before the shop answers. */
export type DrawPlan =
  | { type: 'rejected'; code: 'STAFF_CANNOT_DRAW' | 'DRAW_COUNT_INVALID' | 'IDEMPOTENCY_KEY_REUSED' }
  | { type: 'replay'; draw: ModelDraw }
  | { type: 'refused'; code: 'SOLD_OUT' | 'INSUFFICIENT_COINS' | 'NOT_ENOUGH_LOTS'; details: Record<string, unknown> }
  | { type: 'completed'; cost: number; final: boolean; kiriban: number[] };

export type ChoiceExpectation =
  { ok: false; code: 'PRIZE_NOT_FOUND' | 'PRIZE_ALREADY_DECIDED' | 'PRIZE_KEPT' } | { ok: true; ids: string[] };

/** A reported prize of a fresh draw, as the runner hands it to the model. */
export interface ReportedPrize {
  prizeId: string;
  tierId: string;
  position: number | null;
  conversionValue: number;
  isLastOne: boolean;
  kiriban: number | null;
  ceilingNo?: number | null;
}

const byUuid = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class ShopModel {
  members = new Map<string, ModelMember>();
  packs = new Map<string, ModelPack>();
  prizes = new Map<string, ModelPrize>();
  /** Grant idempotency keys are global: a repeat credits nothing. */
  grantKeys = new Map<string, { memberId: string; kind: CoinKind; amount: number }>();
  private grantSeq = 0;

  addMember(id: string, staff: boolean) {
    this.members.set(id, { id, staff, grants: [], exp: 0, ledger: new Map(), draws: new Map() });
  }

  addPack(
    pack: Omit<ModelPack, 'remaining' | 'soldOut' | 'takenPositions' | 'tiers' | 'ceilingStreaks' | 'ceilingsGiven'> & {
      tiers: Omit<ModelTier, 'won'>[];
    },
  ) {
    this.packs.set(pack.id, {
      ...pack,
      remaining: pack.total,
      soldOut: false,
      takenPositions: new Set(),
      ceilingStreaks: new Map(),
      ceilingsGiven: new Map(),
      tiers: pack.tiers.map((t) => ({ ...t, won: 0 })),
    });
  }

  member(id: string): ModelMember {
    const m = this.members.get(id);
    if (!m) throw new Error(`model: unknown member ${id}`);
    return m;
  }

  pack(id: string): ModelPack {
    const p = this.packs.get(id);
    if (!p) throw new Error(`model: unknown pack ${id}`);
    return p;
  }

  private book(m: ModelMember, reason: string, kind: CoinKind, amount: number) {
    const k = `${reason}:${kind}`;
    m.ledger.set(k, (m.ledger.get(k) ?? 0) + amount);
  }

  // ---- coins ---------------------------------------------------------------------------------

  /** The wallet's balance: every grant's remaining coins (a due grant counts until it is expired). */
  balance(memberId: string): { paid: number; free: number } {
    const m = this.member(memberId);
    let paid = 0;
    let free = 0;
    for (const g of m.grants)
      if (g.kind === 'paid') paid += g.remaining;
      else free += g.remaining;
    return { paid, free };
  }

  /** The balance a member is shown at `now`: grants past their date count for nothing. */
  shownBalance(memberId: string, now: number): { paid: number; free: number } {
    let paid = 0;
    let free = 0;
    for (const g of this.member(memberId).grants) {
      if (g.expiresAt <= now) continue;
      if (g.kind === 'paid') paid += g.remaining;
      else free += g.remaining;
    }
    return { paid, free };
  }

  /** Coins that can be spent at `now`: expired grants are never spent. */
  spendable(memberId: string, now: number): number {
    return this.member(memberId)
      .grants.filter((g) => g.expiresAt > now)
      .reduce((s, g) => s + g.remaining, 0);
  }

  /** Coins (either kind) still spendable that expire within 30 days, and the soonest date. */
  expiringSoon(memberId: string, now: number): { amount: number; firstExpiresAt: string | null } {
    const soon = this.member(memberId).grants.filter(
      (g) => g.remaining > 0 && g.expiresAt > now && g.expiresAt < now + EXPIRING_SOON_MS,
    );
    if (soon.length === 0) return { amount: 0, firstExpiresAt: null };
    return {
      amount: soon.reduce((s, g) => s + g.remaining, 0),
      firstExpiresAt: new Date(Math.min(...soon.map((g) => g.expiresAt))).toISOString(),
    };
  }

  /** Credits coins unless the key was seen before. Answers whether it was a repeat. */
  grant(
    memberId: string,
    key: string,
    kind: CoinKind,
    amount: number,
    expiresAt: number,
    now: number,
    reason: string,
  ): { replay: boolean; conflict?: boolean } {
    const existing = this.grantKeys.get(key);
    // A key belongs to one grant: the same request replays it; another member, kind or amount
    // under it credits nothing and is refused.
    if (existing) {
      const same = existing.memberId === memberId && existing.kind === kind && existing.amount === amount;
      return same ? { replay: true } : { replay: false, conflict: true };
    }
    this.grantKeys.set(key, { memberId, kind, amount });
    this.addGrant(memberId, kind, amount, expiresAt, now, reason);
    return { replay: false };
  }

  private addGrant(memberId: string, kind: CoinKind, amount: number, expiresAt: number, now: number, reason: string) {
    const m = this.member(memberId);
    m.grants.push({ seq: this.grantSeq++, kind, amount, remaining: amount, grantedAt: now, expiresAt });
    this.book(m, reason, kind, amount);
  }

  /** The expiry step for one member: every grant due at `now` loses what is left. Answers how many. */
  expireMember(memberId: string, now: number): number {
    const m = this.member(memberId);
    let count = 0;
    for (const g of m.grants) {
      if (g.remaining > 0 && g.expiresAt <= now) {
        this.book(m, 'expiry', g.kind, -g.remaining);
        g.remaining = 0;
        count++;
      }
    }
    return count;
  }

  /** The expiry job: every member. */
  expireAll(now: number): number {
    let count = 0;
    for (const id of this.members.keys()) count += this.expireMember(id, now);
    return count;
  }

  /** Spends: free coins first, soonest expiry first; then paid coins, oldest first. Never expired ones. */
  private spend(memberId: string, amount: number, now: number, reason: string) {
    const m = this.member(memberId);
    const live = m.grants.filter((g) => g.remaining > 0 && g.expiresAt > now);
    const free = live
      .filter((g) => g.kind === 'free')
      .sort((a, b) => a.expiresAt - b.expiresAt || a.grantedAt - b.grantedAt || a.seq - b.seq);
    const paid = live.filter((g) => g.kind === 'paid').sort((a, b) => a.grantedAt - b.grantedAt || a.seq - b.seq);
    let left = amount;
    for (const g of [...free, ...paid]) {
      if (left === 0) break;
      const take = Math.min(g.remaining, left);
      g.remaining -= take;
      left -= take;
      this.book(m, reason, g.kind, -take);
    }
    if (left !== 0) throw new Error(`model: spend of ${amount} exceeds the spendable coins`);
  }

  // ---- drawing -------------------------------------------------------------------------------

  /**
   * Decides a draw request. The order of the checks: a staff account cannot draw, a count must be
   * one of the pack's options, a known key replays (or is refused with another request), a sold-out
   * pack refuses, then the coins (expired grants are expired first and never count), then the lots.
   */
  planDraw(memberId: string, gachaId: string, count: number, key: string, now: number): DrawPlan {
    const m = this.member(memberId);
    const pack = this.pack(gachaId);
    if (m.staff) return { type: 'rejected', code: 'STAFF_CANNOT_DRAW' };
    if (!pack.drawOptions.includes(count)) return { type: 'rejected', code: 'DRAW_COUNT_INVALID' };
    const stored = m.draws.get(key);
    if (stored) {
      if (stored.gachaId !== gachaId || stored.count !== count)
        return { type: 'rejected', code: 'IDEMPOTENCY_KEY_REUSED' };
      return { type: 'replay', draw: stored };
    }
    if (pack.soldOut) return { type: 'refused', code: 'SOLD_OUT', details: { remaining: 0 } };
    const cost = count * pack.price;
    const available = this.spendable(memberId, now);
    if (available < cost)
      return { type: 'refused', code: 'INSUFFICIENT_COINS', details: { required: cost, balance: available } };
    if (pack.remaining === 0) return { type: 'refused', code: 'SOLD_OUT', details: { remaining: 0 } };
    if (pack.remaining < count)
      return { type: 'refused', code: 'NOT_ENOUGH_LOTS', details: { remaining: pack.remaining } };
    // The lots of this draw are numbers sold+1 .. sold+count of the sale: the キリ番 among them are won.
    const sold = pack.total - pack.remaining;
    const kiriban = pack.tiers
      .flatMap((t) => t.kiribanAt ?? [])
      .filter((k) => k > sold && k <= sold + count)
      .sort((a, b) => a - b);
    return { type: 'completed', cost, final: pack.remaining === count, kiriban };
  }

  /**
   * Applies a stored draw (a fresh refusal or a completed draw). A draw that reaches the wallet
   * first expires the member's due grants. For a completed draw `reported` are the prizes the
   * shop returned; this throws when they cannot be right.
   */
  applyDraw(
    memberId: string,
    gachaId: string,
    count: number,
    key: string,
    now: number,
    plan: DrawPlan,
    drawId: string,
    reported: ReportedPrize[] = [],
  ) {
    const m = this.member(memberId);
    const pack = this.pack(gachaId);
    if (plan.type === 'refused') {
      // Only a refusal that got as far as the wallet (coins or lots) has expired the due grants.
      if (plan.code !== 'SOLD_OUT') this.expireMember(memberId, now);
      m.draws.set(key, { key, gachaId, count, status: 'refused', drawId, code: plan.code, details: plan.details });
      return;
    }
    if (plan.type !== 'completed') throw new Error(`model: applyDraw with a ${plan.type} plan`);
    this.expireMember(memberId, now);
    const lots = reported.filter((p) => !p.isLastOne && p.kiriban === null && (p.ceilingNo ?? null) === null);
    // 天井賞 (decision 089): the member's walk over this draw's lots in position order, from their streak.
    const ceilingTier = pack.tiers.find((t) => t.ceilingAfter);
    const ceilings = reported
      .filter((p) => (p.ceilingNo ?? null) !== null)
      .map((p) => p.ceilingNo!)
      .sort((a, b) => a - b);
    if (ceilingTier) {
      const given = pack.ceilingsGiven.get(memberId) ?? 0;
      const walk = ceilingWalk(
        pack.ceilingStreaks.get(memberId) ?? 0,
        [...lots].sort((a, b) => a.position! - b.position!).map((p) => p.tierId),
        ceilingTier.ceilingAfter!,
        ceilingTier.ceilingOf!,
      );
      const expected = Array.from({ length: walk.won }, (_, i) => given + i + 1);
      if (JSON.stringify(ceilings) !== JSON.stringify(expected))
        throw new Error(`model: 天井賞 ${JSON.stringify(ceilings)} reported, expected ${JSON.stringify(expected)}`);
      pack.ceilingStreaks.set(memberId, walk.streak);
      pack.ceilingsGiven.set(memberId, given + walk.won);
    } else if (ceilings.length > 0) throw new Error('model: a 天井賞 from a pack without one');
    const extras = reported.filter((p) => p.isLastOne);
    const kiriban = reported
      .filter((p) => p.kiriban !== null)
      .map((p) => p.kiriban!)
      .sort((a, b) => a - b);
    if (JSON.stringify(kiriban) !== JSON.stringify(plan.kiriban))
      throw new Error(`model: キリ番 ${JSON.stringify(kiriban)} reported, expected ${JSON.stringify(plan.kiriban)}`);
    if (lots.length !== count) throw new Error(`model: ${lots.length} lots reported for a draw of ${count}`);
    const lastOneTiers = pack.tiers.filter((t) => t.isLastOne);
    const expectedExtras = plan.final ? lastOneTiers.length : 0;
    if (extras.length !== expectedExtras)
      throw new Error(`model: ${extras.length} ラストワン賞 reported, expected ${expectedExtras}`);
    const seen = new Set<number>();
    for (const p of reported) {
      const tier = pack.tiers.find((t) => t.id === p.tierId);
      if (!tier) throw new Error(`model: prize of unknown tier ${p.tierId}`);
      if (tier.isLastOne !== p.isLastOne)
        throw new Error(`model: tier ${p.tierId} reported with isLastOne=${p.isLastOne}`);
      if (p.conversionValue !== tier.conversionValue)
        throw new Error(`model: prize of ${p.tierId} worth ${p.conversionValue}, tier says ${tier.conversionValue}`);
      if ((p.ceilingNo ?? null) !== null) {
        if (p.position !== null) throw new Error('model: a 天井賞 has no position');
        if (!tier.ceilingAfter) throw new Error(`model: 天井賞 of tier ${tier.id}`);
      } else if (tier.ceilingAfter) {
        throw new Error(`model: a lot of the 天井 tier ${tier.id}`);
      } else if (p.kiriban !== null) {
        if (p.position !== null) throw new Error('model: a キリ番賞 has no position');
        if (!tier.kiribanAt?.includes(p.kiriban)) throw new Error(`model: キリ番 ${p.kiriban} of tier ${tier.id}`);
      } else if (tier.kiribanAt) {
        throw new Error(`model: a lot of the キリ番 tier ${tier.id}`);
      } else if (p.isLastOne) {
        if (p.position !== null) throw new Error('model: the ラストワン賞 has no position');
      } else {
        if (p.position === null || !Number.isInteger(p.position) || p.position < 1 || p.position > pack.total)
          throw new Error(`model: bad position ${p.position}`);
        if (pack.takenPositions.has(p.position) || seen.has(p.position))
          throw new Error(`model: position ${p.position} taken twice`);
        seen.add(p.position);
      }
      tier.won += 1;
      if (tier.won > tier.quantity)
        throw new Error(`model: tier ${tier.id} won ${tier.won} times, quantity ${tier.quantity}`);
      if (this.prizes.has(p.prizeId)) throw new Error(`model: prize id ${p.prizeId} reused`);
      this.prizes.set(p.prizeId, {
        id: p.prizeId,
        memberId,
        drawId,
        gachaId,
        tierId: p.tierId,
        position: p.position,
        conversionValue: p.conversionValue,
        isLastOne: p.isLastOne,
        kiriban: p.kiriban,
        ceilingNo: p.ceilingNo ?? null,
        status: 'pending',
        decideBy: now + PRIZE_DECISION_MS,
        keepUntil: null,
        createdAt: now,
      });
    }
    for (const pos of seen) pack.takenPositions.add(pos);
    pack.remaining -= count;
    if (plan.final) {
      pack.soldOut = true;
      for (const t of pack.tiers)
        if (!t.isLastOne && !t.kiribanAt && !t.ceilingAfter && t.won !== t.quantity)
          throw new Error(`model: sold out with tier ${t.id} at ${t.won}/${t.quantity}`);
    }
    this.spend(memberId, plan.cost, now, 'draw');
    m.exp += plan.cost;
    m.draws.set(key, {
      key,
      gachaId,
      count,
      status: 'completed',
      drawId,
      cost: plan.cost,
      lastOne: plan.final,
      kiriban: plan.kiriban,
      prizeIds: reported.map((p) => p.prizeId),
    });
  }

  // ---- prizes --------------------------------------------------------------------------------

  prizesOf(memberId: string, statuses?: PrizeStatus[]): ModelPrize[] {
    return [...this.prizes.values()].filter(
      (p) => p.memberId === memberId && (!statuses || statuses.includes(p.status)),
    );
  }

  /** A choice over prizes: all must be the member's, and all still open (pending or kept). */
  private judgeChoice(memberId: string, ids: string[]): ChoiceExpectation {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return { ok: false, code: 'PRIZE_NOT_FOUND' };
    const own = distinct.map((id) => this.prizes.get(id)).filter((p) => p && p.memberId === memberId) as ModelPrize[];
    if (own.length !== distinct.length) return { ok: false, code: 'PRIZE_NOT_FOUND' };
    if (own.some((p) => p.status !== 'pending' && p.status !== 'kept'))
      return { ok: false, code: 'PRIZE_ALREADY_DECIDED' };
    return { ok: true, ids: distinct.sort(byUuid) };
  }

  /**
   * Converts prizes to free coins at their conversion value, expiring 90 days later; all or none.
   * A kept prize is converted only with `includeKept` (the deadline job never sees kept ones).
   */
  convert(
    memberId: string,
    ids: string[],
    now: number,
    auto = false,
    includeKept = false,
  ): ChoiceExpectation & { total?: number } {
    const judged = this.judgeChoice(memberId, ids);
    if (!judged.ok) return judged;
    if (!auto && !includeKept && judged.ids.some((id) => this.prizes.get(id)!.status === 'kept'))
      return { ok: false, code: 'PRIZE_KEPT' };
    let total = 0;
    for (const id of judged.ids) {
      const p = this.prizes.get(id)!;
      p.status = 'converted';
      if (p.conversionValue > 0)
        this.addGrant(
          memberId,
          'free',
          p.conversionValue,
          now + FREE_COIN_MS,
          now,
          auto ? 'prize_auto_conversion' : 'prize_conversion',
        );
      total += p.conversionValue;
    }
    return { ...judged, total };
  }

  /** Keeps prizes for shipping: they leave the choice window and wait for the end of their storage. */
  keep(memberId: string, ids: string[], now: number): ChoiceExpectation {
    const judged = this.judgeChoice(memberId, ids);
    if (!judged.ok) return judged;
    for (const id of judged.ids) {
      const p = this.prizes.get(id)!;
      p.status = 'kept';
      p.keepUntil ??= now + KEPT_PRIZE_STORAGE_MS;
    }
    return judged;
  }

  /**
   * The deadline job: every pending prize whose window has closed, and every kept prize whose storage
   * has ended, is converted. Answers how many.
   */
  autoConvert(now: number): number {
    let count = 0;
    for (const m of this.members.values()) {
      const due = this.prizesOf(m.id, ['pending', 'kept'])
        .filter((p) => (p.status === 'pending' ? p.decideBy <= now : p.keepUntil !== null && p.keepUntil <= now))
        .map((p) => p.id);
      if (due.length === 0) continue;
      this.convert(m.id, due, now, true);
      count += due.length;
    }
    return count;
  }

  /** The next moment something falls due (a grant's expiry, a pending prize's deadline, a kept one's storage end) after `now`. */
  nextEvent(now: number): number | null {
    let next: number | null = null;
    const consider = (t: number) => {
      if (t > now && (next === null || t < next)) next = t;
    };
    for (const m of this.members.values()) for (const g of m.grants) if (g.remaining > 0) consider(g.expiresAt);
    for (const p of this.prizes.values()) {
      if (p.status === 'pending') consider(p.decideBy);
      if (p.status === 'kept' && p.keepUntil !== null) consider(p.keepUntil);
    }
    return next;
  }
}
