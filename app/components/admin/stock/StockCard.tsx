// One stock card on /admin/stock: on the shelf, promised and available, and its count (棚卸し).
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import type { StockActionData, stockPageLoader } from '~/controllers/admin-stock.server';
import { input, n, type BusyOn } from './style';

type StockCardView = Awaited<ReturnType<typeof stockPageLoader>>['items'][number];

export function StockCard({
  card,
  answer,
  busy,
}: {
  card: StockCardView;
  answer: StockActionData | undefined;
  busy: BusyOn;
}) {
  return (
    <li className="rounded-xl border border-line bg-white px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 font-bold">
          {card.cardName}{' '}
          <span className="text-xs font-normal text-muted">
            {[card.cardSet, card.cardNumber, card.cardGrade].filter(Boolean).join('・')} 参考価値 {n(card.valueCoins)}
            コイン
          </span>
        </p>
        <dl className="flex gap-4 text-sm">
          <div className="flex items-baseline gap-1">
            <dt className="text-xs text-muted">在庫</dt>
            <dd className="font-black">{n(card.onHand)}</dd>
          </div>
          <div className="flex items-baseline gap-1">
            <dt className="text-xs text-muted">引当</dt>
            <dd className="font-black">{n(card.reserved)}</dd>
          </div>
          <div
            className={`flex items-baseline gap-1 rounded px-1.5 ${card.available <= 0 ? 'bg-red-50 text-danger' : 'bg-green-50 text-green-800'}`}
          >
            <dt className="text-xs">使える数</dt>
            <dd className="font-black">{n(card.available)}</dd>
          </div>
        </dl>
      </div>
      <details className="mt-1">
        <summary className="cursor-pointer text-sm font-bold underline">棚卸し（実在庫を入力）</summary>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-end">
          <input type="hidden" name="intent" value="adjust" />
          <input type="hidden" name="stockCardId" value={card.id} />
          <div className="sm:col-span-3">
            <ActionAnswer answer={answer} form={card.id} />
          </div>
          <label className="text-xs font-bold">
            実在庫（枚）
            <input name="onHand" inputMode="numeric" defaultValue={card.onHand} required className={input} />
          </label>
          <label className="text-xs font-bold">
            理由（監査ログに残ります）
            <input name="note" required maxLength={500} className={input} />
          </label>
          <Button type="submit" variant="secondary" loading={busy('adjust', card.id)}>
            保存
          </Button>
        </Form>
      </details>
    </li>
  );
}
