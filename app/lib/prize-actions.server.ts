// The prize choices as a form action, shared by the result page and the prize box: convert undecided
// cards (one or many), convert one kept card (its own intent and confirmation), keep for shipping.
// Ownership is checked by the module: another member's prize is a 404. The ids are checked by the
// same schema as the API's (prizeConversionSchema), and a refusal reads as the API's message.
import { data } from 'react-router';
import type { ShopRequest } from '~/context';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { convertPrizes, keepPrizes, prizeConversionSchema } from '#modules/draw';
import { describeRefusal } from '#server/refusals';
import { parseWithMessage } from '#server/validation';
import { formatCoins } from './numbers';
import { maintenanceRefusal, refusalInit } from './maintenance.server';

export type PrizeActionData =
  | { ok: true; intent: PrizeIntent; message: string; prizeIds: string[] }
  | { ok: false; intent: PrizeIntent | null; message: string };

export type PrizeIntent = 'convert' | 'convertKept' | 'keep';

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
  const intent = (['convert', 'convertKept', 'keep'] as const).find((i) => i === form.intent) ?? null;
  if (!intent) return refuse(400, '操作を選び直してください。');
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
  const outcome = await convertPrizes(db, shop.member.id, ids, {
    freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
    includeKept: parsed.data.includeKept === true,
  });
  if (!outcome.ok) return refused(outcome);
  return {
    ok: true,
    intent,
    prizeIds: ids,
    message: `${outcome.converted.length}枚を${formatCoins(outcome.total)}コインに交換しました。`,
  } satisfies PrizeActionData;
}
