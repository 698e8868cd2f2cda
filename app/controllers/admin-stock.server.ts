// /admin/stock: the shop's physical cards. The list (search, only the cards with nothing available),
// receiving cards (入庫) and a stocktake (棚卸し) per card, each through the admin module's audited
// operations (packs:write), the same functions the command line's stock:receive calls.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { adjustStockAsOperator, receiveStockAsOperator } from '#modules/admin';
import { listStock, stockAdjustmentSchema, stockListFilterSchema, stockReceiptSchema } from '#modules/gacha';
import type { Refusal } from '#modules/kernel';

export interface StockActionData {
  ok?: string;
  error?: string;
  /** 'receive', or the stock card's id for a stocktake. */
  form?: string;
  /** The field a refusal is about (receive form). */
  field?: string;
}

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
  return data<StockActionData>({ error: described.message, form }, { status: described.status });
};

export async function stockPageAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'packs:write');
  const form = await readFormFields(request);
  if (!form) return data<StockActionData>({ error: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const db = shop.services.db;

  if (form.intent === 'receive') {
    const parsed = stockReceiptSchema.safeParse(form);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return data<StockActionData>(
        { error: issue?.message ?? '入力を確認してください。', form: 'receive', field: String(issue?.path[0] ?? '') },
        { status: 400 },
      );
    }
    const done = await receiveStockAsOperator(db, operator, [parsed.data]);
    if (!done.ok) return refused(done, 'receive');
    const card = done.value[0]!;
    return {
      ok: `「${card.cardName}」を${parsed.data.count.toLocaleString('ja-JP')}枚入庫しました（在庫 ${card.onHand.toLocaleString('ja-JP')}枚・引当 ${card.reserved.toLocaleString('ja-JP')}枚）。`,
      form: 'receive',
    };
  }

  if (form.intent === 'adjust') {
    const target = form.stockCardId ?? '';
    const parsed = stockAdjustmentSchema.safeParse(form);
    if (!parsed.success)
      return data<StockActionData>(
        { error: parsed.error.issues[0]?.message ?? '入力を確認してください。', form: target },
        { status: 400 },
      );
    const done = await adjustStockAsOperator(db, operator, parsed.data);
    if (!done.ok) return refused(done, target);
    return {
      ok: `「${done.value.cardName}」の在庫を${done.value.onHand.toLocaleString('ja-JP')}枚にしました。`,
      form: target,
    };
  }

  return data<StockActionData>({ error: '操作を選び直してください。' }, { status: 400 });
}
