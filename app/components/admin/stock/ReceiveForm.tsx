// 入庫: cards received onto the shelf; the same name, set, number and grade add to the same stock.
import { useEffect, useRef } from 'react';
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import type { StockActionData } from '~/controllers/admin-stock.server';
import { input, type BusyOn } from './style';

export function ReceiveForm({ answer, busy }: { answer: StockActionData | undefined; busy: BusyOn }) {
  // A receipt recorded empties its form for the next card.
  const receiveForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.form === 'receive' && answer.ok) receiveForm.current?.reset();
  }, [answer]);
  return (
    <section aria-labelledby="receive" className="h-fit rounded-2xl border border-line bg-white p-5 lg:sticky lg:top-6">
      <h2 id="receive" className="text-lg font-bold">
        入庫する
      </h2>
      <p className="mt-1 text-xs text-muted">
        同じカード名・セット・番号・グレードのカードは同じ在庫に加算されます。参考価値は欠品時の代わりのカード選びに使います。
      </p>
      <Form method="post" ref={receiveForm} className="mt-3 grid gap-3">
        <input type="hidden" name="intent" value="receive" />
        <ActionAnswer answer={answer} form="receive" />
        <label className="text-xs font-bold">
          カード名
          <input name="cardName" required maxLength={120} className={input} />
        </label>
        <div className="grid grid-cols-2 gap-3">
          <label className="text-xs font-bold">
            セット（弾）
            <input name="cardSet" maxLength={60} className={input} />
          </label>
          <label className="text-xs font-bold">
            カード番号
            <input name="cardNumber" maxLength={30} className={input} />
          </label>
        </div>
        <label className="text-xs font-bold">
          グレード（例: PSA10）
          <input name="cardGrade" maxLength={20} className={input} />
        </label>
        <div className="grid grid-cols-2 gap-3">
          <label className="text-xs font-bold">
            枚数
            <input name="count" inputMode="numeric" required className={input} />
          </label>
          <label className="text-xs font-bold">
            参考価値（コイン）
            <input name="valueCoins" inputMode="numeric" required className={input} />
          </label>
        </div>
        <label className="text-xs font-bold">
          メモ（仕入れ先など・任意）
          <input name="note" maxLength={500} className={input} />
        </label>
        <Button type="submit" loading={busy('receive')}>
          入庫する
        </Button>
      </Form>
    </section>
  );
}
