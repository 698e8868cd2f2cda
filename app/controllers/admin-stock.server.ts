// /admin/stock: the shop's physical cards. The list (search, only the cards with nothing available),
// receiving cards (入庫) and a stocktake (棚卸し) per card, each through the admin module's audited
// operations (packs:write), the same functions the command line's stock:receive calls.
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { adjustStockAsOperator, receiveStockAsOperator } from '#modules/admin';
import { listStock, stockAdjustmentSchema, stockListFilterSchema, stockReceiptSchema } from '#modules/gacha';
import type { Refusal } from '#modules/kernel';

/** `form` is 'receive', or the stock card's id for a stocktake; `field` is what a refusal is about (receive). */
export type StockActionData = AdminActionResult<{ field: string }>;

export async function stockPageLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'packs:write');
  const url = new URL(request.url);
  const parsed = stockListFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  const filter = parsed.success ? parsed.data : stockListFilterSchema.parse({});
  const listed = await listStock(shop.services.db, filter);
  return {
    filter: { query: filter.query ?? '', shortOnly: filter.shortOnly, page: filter.page },
    ...listed,
  };
}

const refused = (refusal: Refusal<string>, form: string) => {
  const described = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused(described.message, { form, status: described.status });
};

export async function stockPageAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'packs:write');
  const form = await readFormFields(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const db = shop.services.db;

  if (form.intent === 'receive') {
    const parsed = stockReceiptSchema.safeParse(form);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return actionRefused<{ field: string }>(issue?.message ?? '入力を確認してください。', {
        form: 'receive',
        field: String(issue?.path[0] ?? ''),
      });
    }
    const done = await receiveStockAsOperator(db, operator, [parsed.data]);
    if (!done.ok) return refused(done, 'receive');
    const card = done.value[0]!;
    return actionOk(
      `「${card.cardName}」を${parsed.data.count.toLocaleString('ja-JP')}枚入庫しました（在庫 ${card.onHand.toLocaleString('ja-JP')}枚・引当 ${card.reserved.toLocaleString('ja-JP')}枚）。`,
      { form: 'receive' },
    );
  }

  if (form.intent === 'adjust') {
    const target = form.stockCardId ?? '';
    const parsed = stockAdjustmentSchema.safeParse(form);
    if (!parsed.success)
      return actionRefused(parsed.error.issues[0]?.message ?? '入力を確認してください。', { form: target });
    const done = await adjustStockAsOperator(db, operator, parsed.data);
    if (!done.ok) return refused(done, target);
    return actionOk(`「${done.value.cardName}」の在庫を${done.value.onHand.toLocaleString('ja-JP')}枚にしました。`, {
      form: target,
    });
  }

  return actionRefused('操作を選び直してください。');
}
