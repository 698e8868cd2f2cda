// /admin/coin-packs: the coin packs members buy (price, paid and bonus coins, first-purchase-only,
// badge, order, on sale or not). Saving goes through the admin module's audited saveCoinPackAsOperator,
// the function the command line's coinpacks:set calls; orders copy a pack's numbers, so an edit never
// changes a purchase already made.
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { saveCoinPackAsOperator } from '#modules/admin';
import { jstLocalInput, windowPhase, windowText, type Refusal } from '#modules/kernel';
import { coinPackFormSchema, listAllCoinPacks } from '#modules/payments';

/** The coin packs page's answer (decision 067); `form` is the pack's id, or 'new'. */
export type CoinPackActionData = AdminActionResult;

export async function coinPacksLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'packs:write');
  const packs = await listAllCoinPacks(shop.services.db);
  const now = new Date();
  return {
    packs: packs.map((p) => ({
      id: p.id,
      name: p.name,
      priceJpy: p.priceJpy,
      paidCoins: p.paidCoins,
      bonusCoins: p.bonusCoins,
      firstPurchaseOnly: p.firstPurchaseOnly,
      badge: p.badge,
      sortOrder: p.sortOrder,
      active: p.active,
      startsAt: jstLocalInput(p.startsAt),
      endsAt: jstLocalInput(p.endsAt),
      windowText: windowText(p),
      phase: windowPhase(p, now),
    })),
  };
}

export async function coinPacksAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'packs:write');
  const form = await readFormFields(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const which = form.intent === 'create' ? 'new' : (form.id ?? '');
  if (form.intent !== 'create' && form.intent !== 'save')
    return actionRefused('操作を選び直してください。', { form: which });
  const parsed = coinPackFormSchema.safeParse(form);
  if (!parsed.success)
    return actionRefused(parsed.error.issues[0]?.message ?? '入力を確認してください。', { form: which });
  const existing = (await listAllCoinPacks(shop.services.db)).some((p) => p.id === parsed.data.id);
  if (form.intent === 'create' && existing)
    return actionRefused(`ID「${parsed.data.id}」のコインパックはすでにあります。別のIDにしてください。`, {
      form: which,
      status: 409,
    });
  if (form.intent === 'save' && !existing)
    return actionRefused('このコインパックは見つかりません。', { form: which, status: 404 });
  const done = await saveCoinPackAsOperator(shop.services.db, operator, parsed.data);
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    return actionRefused(described.message, { form: which, status: described.status });
  }
  return actionOk(
    `「${parsed.data.name}」を${form.intent === 'create' ? '追加' : '保存'}しました${parsed.data.active ? '' : '（販売停止中）'}${parsed.data.startsAt || parsed.data.endsAt ? `（販売期間 ${windowText(parsed.data)}）` : ''}。`,
    { form: which },
  );
}
