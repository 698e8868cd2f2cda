// coinpacks:set: create or replace a coin pack (orders copy a pack's numbers, so editing never changes a purchase).
import { z } from 'zod';
import { decimalInteger, UsageError } from '../args';
import { saveCoinPackAsOperator } from '#modules/admin';
import { settled, type ShopCommand } from '../command';

const coinPackInput = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: z.string().trim().min(1).max(60),
  price: decimalInteger(1, 10_000_000),
  paid: decimalInteger(1, 10_000_000),
  bonus: decimalInteger(0, 10_000_000),
  sort: decimalInteger(0, 10_000_000),
});

export const coinpacksSet: ShopCommand = {
  name: 'coinpacks:set',
  usage: '--id ID --name 名前 --price 円 --paid 枚 [--bonus 枚] [--first] [--badge 人気] [--sort N] [--inactive]',
  options: {
    id: { type: 'string' },
    name: { type: 'string' },
    price: { type: 'string' },
    paid: { type: 'string' },
    bonus: { type: 'string' },
    first: { type: 'boolean' },
    badge: { type: 'string' },
    sort: { type: 'string' },
    inactive: { type: 'boolean' },
  },
  async run({ db, out, operator }, { values }) {
    const parsed = coinPackInput.safeParse({
      id: values.id,
      name: values.name,
      price: values.price,
      paid: values.paid,
      bonus: values.bonus ?? '0',
      sort: values.sort ?? '0',
    });
    if (!parsed.success) {
      const named = [...new Set(parsed.error.issues.map((i) => `--${i.path.join('.')}`))].join(', ');
      throw new UsageError(
        `入力に誤りがあります: ${named}（id は半角英小文字・数字・ハイフン、金額と枚数は半角数字の整数）`,
      );
    }
    const badge = typeof values.badge === 'string' ? values.badge.trim() : '';
    const row = {
      id: parsed.data.id,
      name: parsed.data.name,
      priceJpy: parsed.data.price,
      paidCoins: parsed.data.paid,
      bonusCoins: parsed.data.bonus,
      firstPurchaseOnly: Boolean(values.first),
      badge: badge || null,
      sortOrder: parsed.data.sort,
      active: !values.inactive,
    };
    settled(await saveCoinPackAsOperator(db, operator, row));
    out(JSON.stringify(row));
  },
};
