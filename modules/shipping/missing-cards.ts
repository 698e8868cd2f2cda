// A card the desk cannot send (missing from the shelf, or damaged) while its request is still being
// prepared (issue 12, item 13): the operator chooses a substitute of equal or higher value, or coins.
// Either way the original card leaves stock, the choice is recorded, and the member is told (timeline
// and mail), all in one audited transaction.
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { runAdminAction, type AuditRecord, type Operator } from '#modules/admin';
import { compensatePrizeFromShipping, lockShippingPrize, shippingPrizeCards } from '#modules/draw';
import { prizeSubstitutes, reportPrizeCardGone } from '#modules/gacha';
import { refuse, RefusalError, uuidSchema, type Refusal } from '#modules/kernel';
import { MISSING_CARD_REASONS, notifyMember } from './notices';
import { cancelLockedRequest, liveItemsOf, lockRequest } from './request-changes';
import type { ShippingRules } from './requests';
import { missingCardConditions, shippingRequestItems, shippingSubstitutions } from './schema';
import { recordEvent } from './timeline';

/** The desk's report of a missing or damaged card (the admin form parses it; so does any API). */
export const missingCardReportSchema = z.object({
  requestId: uuidSchema,
  prizeId: uuidSchema,
  condition: z.enum(missingCardConditions, { error: '「在庫なし」か「破損」を選んでください。' }),
  resolution: z.discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('substitute'), stockCardId: z.uuid({ error: '代わりのカードを選んでください。' }) }),
      z.object({
        kind: z.literal('compensation'),
        coins: z.coerce
          .number({ error: '補償のコイン数を入力してください。' })
          .int({ error: 'コイン数は整数で入力してください。' })
          .min(0, { error: 'コイン数は0以上です。' })
          .max(10_000_000, { error: 'コイン数が大きすぎます。' }),
      }),
    ],
    { error: '代わりのカードか、コインでの補償かを選んでください。' },
  ),
  noteForMember: z
    .string()
    .trim()
    .max(500, { error: '会員へのメッセージは500文字以内で入力してください。' })
    .nullish()
    .transform((v) => v || null),
});
export type MissingCardReport = z.input<typeof missingCardReportSchema>;

/** What a report did: the substitute sent, or the coins given (and whether the request ended). */
export interface MissingCardOutcome {
  prizeId: string;
  condition: 'missing' | 'damaged';
  substitute: { stockCardId: string; cardName: string } | null;
  compensationCoins: number;
  /** The request had no other card left and was canceled by the shop (its fee refunded). */
  requestCanceled: boolean;
}

/**
 * Reports a prize's card missing or damaged on a request in `requested` or `preparing` (else
 * SHIPPING_STATUS_CONFLICT). The original card leaves stock (on hand and reserved − 1; skipped for a
 * prize of a pack from before stock existed). With a substitute: it must have one available and be
 * worth at least the prize's conversion value (STOCK_SUBSTITUTE_UNAVAILABLE / STOCK_SUBSTITUTE_TOO_LOW),
 * and it is reserved for the prize, shown on the member's request and the packing slip. With
 * compensation: at least the conversion value in free coins (SHIPPING_COMPENSATION_TOO_LOW), once per
 * prize (key prize-compensation:<prizeId>); the prize leaves the request as converted, and a request
 * left without cards is canceled by the shop (fee refunded). A prize is reported once per request
 * (SHIPPING_CARD_ALREADY_REPORTED; the request's row lock orders racing reports). Audited
 * ('shipping.card_missing'); a refusal leaves nothing.
 * @example await reportMissingCard(db, operator, rules, { requestId, prizeId, condition: 'missing', resolution: { kind: 'substitute', stockCardId } })
 */
export async function reportMissingCard(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  report: MissingCardReport,
  now = new Date(),
): Promise<{ ok: true; value: MissingCardOutcome } | Refusal<string>> {
  const parsed = missingCardReportSchema.safeParse(report);
  if (!parsed.success) throw new RangeError('reportMissingCard: parse the report with missingCardReportSchema first');
  const input = parsed.data;
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const row = await lockRequest(tx, input.requestId);
    if (!row) throw new RefusalError(refuse('SHIPPING_REQUEST_NOT_FOUND', { requestId: input.requestId }));
    if (row.status !== 'requested' && row.status !== 'preparing')
      throw new RefusalError(
        refuse('SHIPPING_STATUS_CONFLICT', { status: row.status, action: 'reportMissingCard', requestId: row.id }),
      );
    const live = await liveItemsOf(tx, row.id);
    if (!live.includes(input.prizeId))
      throw new RefusalError(refuse('SHIPPING_PRIZE_NOT_IN_REQUEST', { requestId: row.id, prizeId: input.prizeId }));
    const [earlier] = await tx
      .select({ id: shippingSubstitutions.id })
      .from(shippingSubstitutions)
      .where(and(eq(shippingSubstitutions.requestId, row.id), eq(shippingSubstitutions.prizeId, input.prizeId)));
    if (earlier)
      throw new RefusalError(refuse('SHIPPING_CARD_ALREADY_REPORTED', { requestId: row.id, prizeId: input.prizeId }));
    // Lock order: request → prize → wallet → stock cards.
    const prize = await lockShippingPrize(tx, input.prizeId);
    if (!prize || prize.memberId !== row.memberId || prize.status !== 'shipping')
      throw new Error(`reportMissingCard: prize ${input.prizeId} is live in request ${row.id} but not in 'shipping'`);
    const card = (await shippingPrizeCards(tx, [prize.prizeId])).get(prize.prizeId);
    const cardName = (await prizeSubstitutes(tx, [prize.prizeId])).get(prize.prizeId)?.cardName ?? card?.cardName ?? '';
    const stockPrize = { prizeId: prize.prizeId, tierId: prize.tierId, gachaId: prize.gachaId };
    const reason = MISSING_CARD_REASONS[input.condition];
    const extra = input.noteForMember ? ` ${input.noteForMember}` : '';
    const audit: AuditRecord[] = [];
    const reported: ReportedCard = { row, prize, live, cardName, stockPrize, reason, extra };
    const outcome =
      input.resolution.kind === 'substitute'
        ? await sendSubstitute(tx, operator, rules, input, input.resolution.stockCardId, reported, now)
        : await compensateWithCoins(tx, operator, rules, input, input.resolution.coins, reported, audit, now);
    audit.unshift({
      action: 'shipping.card_missing',
      target: { type: 'shipping_request', id: row.id },
      before: { status: row.status, prizeId: prize.prizeId, cardName },
      after: {
        status: outcome.requestCanceled ? 'canceled' : row.status,
        prizeId: prize.prizeId,
        condition: input.condition,
        resolution: input.resolution.kind,
        substitute: outcome.substitute,
        compensationCoins: outcome.compensationCoins,
      },
    });
    return { value: outcome, audit };
  });
}

/** What both resolutions work from: the locked request and prize, and the words the member is told. */
interface ReportedCard {
  row: NonNullable<Awaited<ReturnType<typeof lockRequest>>>;
  prize: NonNullable<Awaited<ReturnType<typeof lockShippingPrize>>>;
  /** The prizes the request still holds. */
  live: string[];
  cardName: string;
  stockPrize: Parameters<typeof reportPrizeCardGone>[1]['prize'];
  reason: string;
  extra: string;
}

/** The substitute card goes out instead: reserved for the prize, recorded, and the member told. */
async function sendSubstitute(
  tx: Database,
  operator: Operator,
  rules: ShippingRules,
  input: z.output<typeof missingCardReportSchema>,
  stockCardId: string,
  reported: ReportedCard,
  now: Date,
): Promise<MissingCardOutcome> {
  const { row, prize, cardName, stockPrize, reason, extra } = reported;
  const gone = await reportPrizeCardGone(tx, {
    prize: stockPrize,
    condition: input.condition,
    requestId: row.id,
    note: input.noteForMember,
    now,
    substitute: { stockCardId, minValue: prize.conversionValue },
  });
  const substitute = gone.substitute!;
  await tx.insert(shippingSubstitutions).values({
    requestId: row.id,
    prizeId: prize.prizeId,
    condition: input.condition,
    originalStockCardId: gone.original?.id ?? null,
    substituteStockCardId: substitute.id,
    compensationCoins: 0,
    operatorId: operator.memberId,
    operatorLabel: operator.label,
    noteForMember: input.noteForMember,
    at: now,
  });
  await recordEvent(tx, {
    requestId: row.id,
    kind: 'substituted',
    status: row.status,
    at: now,
    actor: 'staff',
    note: `「${cardName}」を${reason}ご用意できなかったため、同等以上の価値の「${substitute.cardName}」をお送りします。${extra}`,
  });
  await notifyMember(tx, rules.site, row.memberId, {
    kind: 'card-substituted',
    requestId: row.id,
    condition: input.condition,
    cardName,
    substituteName: substitute.cardName,
  });
  return {
    prizeId: prize.prizeId,
    condition: input.condition,
    substitute: { stockCardId: substitute.id, cardName: substitute.cardName },
    compensationCoins: 0,
    requestCanceled: false,
  };
}

/** Coins instead of the card: the prize leaves the request converted; a request left empty is canceled. */
async function compensateWithCoins(
  tx: Database,
  operator: Operator,
  rules: ShippingRules,
  input: z.output<typeof missingCardReportSchema>,
  coins: number,
  reported: ReportedCard,
  audit: AuditRecord[],
  now: Date,
): Promise<MissingCardOutcome> {
  const { row, prize, live, cardName, stockPrize, reason, extra } = reported;
  if (coins < prize.conversionValue)
    throw new RefusalError(
      refuse('SHIPPING_COMPENSATION_TOO_LOW', { coins, minCoins: prize.conversionValue, prizeId: prize.prizeId }),
    );
  await compensatePrizeFromShipping(tx, {
    memberId: row.memberId,
    prizeId: prize.prizeId,
    coins,
    freeCoinDays: rules.freeCoinDays,
    now,
  });
  await tx
    .update(shippingRequestItems)
    .set({ releasedAt: now })
    .where(
      and(
        eq(shippingRequestItems.requestId, row.id),
        eq(shippingRequestItems.prizeId, prize.prizeId),
        isNull(shippingRequestItems.releasedAt),
      ),
    );
  await recordEvent(tx, {
    requestId: row.id,
    kind: 'item_compensated',
    status: row.status,
    at: now,
    actor: 'staff',
    note: `「${cardName}」を${reason}ご用意できなかったため、${coins.toLocaleString('ja-JP')}コイン（無償）をお贈りしました。${extra}`,
  });
  await notifyMember(tx, rules.site, row.memberId, {
    kind: 'card-compensated',
    requestId: row.id,
    condition: input.condition,
    cardName,
    coins,
  });
  // Nothing left to send: the shop cancels the request (the fee comes back, the member is told).
  // Before the stock step: every wallet step comes first (lock order … → wallet → stock cards).
  const remaining = live.filter((id) => id !== prize.prizeId);
  let requestCanceled = false;
  if (remaining.length === 0) {
    const canceled = await cancelLockedRequest(tx, rules, row, {
      action: 'cancelByShop',
      now,
      actor: 'staff',
      note: 'お送りできるカードがなくなったため、発送依頼を終了しました。',
    });
    requestCanceled = true;
    audit.push({
      action: 'shipping.cancel',
      target: { type: 'shipping_request', id: row.id },
      before: { status: row.status },
      after: { status: canceled.row.status, refundCoins: canceled.refundCoins },
    });
  }
  const gone = await reportPrizeCardGone(tx, {
    prize: stockPrize,
    condition: input.condition,
    requestId: row.id,
    note: input.noteForMember,
    now,
  });
  await tx.insert(shippingSubstitutions).values({
    requestId: row.id,
    prizeId: prize.prizeId,
    condition: input.condition,
    originalStockCardId: gone.original?.id ?? null,
    substituteStockCardId: null,
    compensationCoins: coins,
    operatorId: operator.memberId,
    operatorLabel: operator.label,
    noteForMember: input.noteForMember,
    at: now,
  });
  return {
    prizeId: prize.prizeId,
    condition: input.condition,
    substitute: null,
    compensationCoins: coins,
    requestCanceled,
  };
}
