// The prize choices as a form action, shared by the result page and the prize box: convert undecided
// cards (one, or the chosen tiers of many), convert one kept card (its own intent and confirmation),
// keep for shipping, and undo a conversion for CONVERT_UNDO_SECONDS (decision 057).
// Ownership is checked by the module: another member's prize is a 404. The ids are checked by the
// same schema as the API's (prizeConversionSchema), and a refusal reads as the API's message.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import type { Database } from '#db/client';
import type { ShopConfig } from '#server/context';
import { tierCards } from '#modules/gacha';
import type { PrizeRules } from '~/components/gacha/BulkConvertSheet';
import { convertPrizes, describePrizes, keepPrizes, prizeConversionSchema, undoConversion } from '#modules/draw';
import { isUuid } from '#modules/kernel';
import { describeRefusal } from '#modules/refusals';
import { parseWithMessage } from '#modules/kernel';
import { formatCoins } from '~/lib/numbers';
import { maintenanceRefusal, refusalInit } from './maintenance.server';

export type PrizeActionData =
  | {
      ok: true;
      intent: PrizeIntent;
      message: string;
      prizeIds: string[];
      /** A conversion that can still be undone (元に戻す) until `until`. */
      undo?: { conversionId: string; until: string; seconds: number } | null;
    }
  | { ok: false; intent: PrizeIntent | null; message: string };

export type PrizeIntent = 'convert' | 'convertKept' | 'keep' | 'undo';

/** The tiers a bulk conversion chose, one name a line (the form's `tiers` field). */
export const TIER_SEPARATOR = '\n';

/**
 * The prizes among `ids` whose tier is one of `tiers` (by the tier's name, as the bulk sheet offers
 * them): a bulk conversion converts only the tiers the member ticked, never every undecided card.
 * Prizes that are not the member's are left in, so the conversion refuses them as before.
 * @example await pickByTiers(db, member.id, shownIds, ['C賞'])
 */
export async function pickByTiers(db: Database, memberId: string, ids: string[], tiers: string[]) {
  const chosen = new Set(tiers);
  const described = await describePrizes(db, memberId, ids);
  return ids.filter((id) => {
    const prize = described.get(id);
    return !prize || chosen.has(prize.tierLabel);
  });
}

/**
 * The settings behind the prize choices, for a page's loader: which cards a conversion names, which
 * tiers keep 保管 first, and how long 元に戻す lasts (decision 057).
 * @example prizeRules: prizeRulesOf(shop.services.config)
 */
export const prizeRulesOf = (config: ShopConfig): PrizeRules => ({
  highlightCoins: config.PRIZE_HIGHLIGHT_COINS,
  minCoins: config.CONVERT_CONFIRM_NAMED_MIN_COINS,
  aboveLowestTiers: config.CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS,
  undoSeconds: config.CONVERT_UNDO_SECONDS,
});

/**
 * A draw's prizes with each one's standing in its pack (`tiersBelow`), which the naming rule reads.
 * @example items: await withTierStanding(db, result.items)
 */
export async function withTierStanding<P extends { tierId: string }>(
  db: Database,
  items: P[],
): Promise<(P & { tiersBelow: number })[]> {
  const cards = await tierCards(
    db,
    items.map((i) => i.tierId),
  );
  return items.map((i) => ({ ...i, tiersBelow: cards.get(i.tierId)?.tiersBelow ?? 0 }));
}

const refuse = (status: number, message: string, intent: PrizeIntent | null = null) =>
  data<PrizeActionData>({ ok: false, intent, message }, { status });

/**
 * Applies one choice. `convert` never touches a kept card (the module refuses the whole request);
 * `convertKept` names exactly one card and is the only way to convert a kept one.
 * @example export const action = ({ request, context }) => prizeChoiceAction(context.get(shopRequestContext), request)
 */
export async function prizeChoiceAction(shop: ShopRequest, request: Request) {
  if (!shop.member) return refuse(401, 'ログインしてください。');
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<PrizeActionData>({ ok: false, intent: null, message: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return refuse(400, UNREADABLE_FORM_MESSAGE);
  const intent = (['convert', 'convertKept', 'keep', 'undo'] as const).find((i) => i === form.intent) ?? null;
  if (!intent) return refuse(400, '操作を選び直してください。');
  if (intent === 'undo') return undoAction(shop.services.db, shop.member.id, String(form.conversionId ?? ''));
  const parsed = parseWithMessage(prizeConversionSchema, {
    prizeIds: [
      ...new Set(
        String(form.prizeIds ?? '')
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ],
    includeKept: intent === 'convertKept',
  });
  if (!parsed.ok) return refuse(400, parsed.message, intent);
  const ids = parsed.data.prizeIds;
  if (intent === 'convertKept' && ids.length !== 1)
    return refuse(400, '保管中のカードは1枚ずつ交換してください。', intent);
  const { db, config } = shop.services;
  const refused = (refusal: Parameters<typeof describeRefusal>[0]) => {
    const { status, message } = describeRefusal(refusal);
    return refuse(status, message, intent);
  };
  if (intent === 'keep') {
    const outcome = await keepPrizes(db, shop.member.id, ids, { storageDays: config.KEPT_PRIZE_STORAGE_DAYS });
    if (!outcome.ok) return refused(outcome);
    return {
      ok: true,
      intent,
      prizeIds: ids,
      message: `${outcome.kept}枚を発送用に保管しました。`,
    } satisfies PrizeActionData;
  }
  let chosen = ids;
  if (intent === 'convert' && form.tiers !== undefined) {
    const tiers = form.tiers
      .split(TIER_SEPARATOR)
      .map((t) => t.trim())
      .filter(Boolean);
    chosen = tiers.length > 0 ? await pickByTiers(db, shop.member.id, ids, tiers) : [];
    if (chosen.length === 0) return refuse(400, '交換する賞を1つ以上選んでください。', intent);
  }
  const outcome = await convertPrizes(db, shop.member.id, chosen, {
    freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
    includeKept: parsed.data.includeKept === true,
    undoSeconds: config.CONVERT_UNDO_SECONDS,
  });
  if (!outcome.ok) return refused(outcome);
  return {
    ok: true,
    intent,
    prizeIds: chosen,
    message: `${outcome.converted.length}枚を${formatCoins(outcome.total)}コインに交換しました。`,
    undo: outcome.undo ? { ...outcome.undo, seconds: config.CONVERT_UNDO_SECONDS } : null,
  } satisfies PrizeActionData;
}

/** 元に戻す: the member's own conversion, within its window; a second tap answers the first undo. */
async function undoAction(db: Database, memberId: string, conversionId: string) {
  if (!isUuid(conversionId)) return refuse(400, '元に戻す交換を選び直してください。', 'undo');
  const outcome = await undoConversion(db, memberId, conversionId);
  if (!outcome.ok) {
    const { status, message } = describeRefusal(outcome);
    return refuse(status, message, 'undo');
  }
  return {
    ok: true,
    intent: 'undo',
    prizeIds: [],
    message: `交換を取り消しました。${outcome.restored}枚のカードが獲得商品に戻り、${formatCoins(outcome.total)}コインを差し引きました。`,
  } satisfies PrizeActionData;
}
