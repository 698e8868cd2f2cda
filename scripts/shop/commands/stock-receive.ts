// stock:receive: cards into stock, one card by its options or every card a pack definition needs (--pack).
import { packDefinitionSchema, stockReceiptSchema, type StockReceipt } from '#modules/gacha';
import { receiveStockAsOperator } from '#modules/admin';
import { integerOption, requiredOption, UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

export const stockReceive: ShopCommand = {
  name: 'stock:receive',
  usage:
    '--name "カード名" --count N --value コイン [--set 弾] [--number 番号] [--grade グレード] [--note メモ] | --pack <file.json>',
  options: {
    name: { type: 'string' },
    set: { type: 'string' },
    number: { type: 'string' },
    grade: { type: 'string' },
    count: { type: 'string' },
    value: { type: 'string' },
    note: { type: 'string' },
    pack: { type: 'string' },
  },
  inputFiles: ({ values }) => (typeof values.pack === 'string' ? [values.pack] : []),
  async run({ db, out, operator, files }, { values }) {
    let receipts: StockReceipt[];
    if (typeof values.pack === 'string') {
      // Exactly what the pack's tiers promise, at each tier's conversion value (then pack:publish).
      let json: unknown;
      try {
        json = JSON.parse(await files.read(values.pack));
      } catch (error) {
        throw new UsageError(`${values.pack} を読めません: ${(error as Error).message}`);
      }
      const pack = packDefinitionSchema.safeParse(json);
      if (!pack.success)
        throw new UsageError(
          `定義に誤りがあります:\n${pack.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
        );
      receipts = pack.data.tiers.map((t) => ({
        cardName: t.cardName,
        cardSet: t.cardSet ?? null,
        cardNumber: t.cardNumber ?? null,
        cardGrade: t.cardGrade ?? null,
        count: t.quantity,
        valueCoins: t.conversionValue,
        note: typeof values.note === 'string' ? values.note : `${pack.data.id} の入庫`,
      }));
    } else {
      const receipt = stockReceiptSchema.safeParse({
        cardName: requiredOption(
          values,
          'name',
          '--name（カード名）、--count（枚数）、--value（参考価値）を指定してください。',
        ),
        cardSet: values.set,
        cardNumber: values.number,
        cardGrade: values.grade,
        count: integerOption(values, 'count', { min: 1, max: 100_000 }),
        valueCoins: integerOption(values, 'value', { min: 0, max: 10_000_000 }),
        note: values.note,
      });
      if (!receipt.success) throw new UsageError(receipt.error.issues.map((i) => i.message).join('\n'));
      receipts = [receipt.data];
    }
    for (const card of settled(await receiveStockAsOperator(db, operator, receipts))) out(JSON.stringify(card));
  },
};
