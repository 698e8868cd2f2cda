// One desk request's moves: those its status allows (ship asks for the carrier and the tracking number,
// and asks first while an inquiry is open; convert, return and the shop's cancel ask first; the cancel
// is a quiet control apart from the others).
import { useEffect, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/request';
import { Button } from '~/components/Button';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { INQUIRIES_SEEN_FIELD } from '~/lib/admin-shipping';
import type { DeskActionData } from '~/controllers/admin-shipping.server';

type RequestData = Route.ComponentProps['loaderData'];

/** Moves that change what cannot simply be undone ask first, in a sheet. */
const ASKS_FIRST = new Set(['return', 'convertReturned', 'cancelByShop']);

/** The shop's cancel: asked in these words, and kept apart from the desk's everyday moves. */
const CANCEL_QUESTION = 'この依頼をキャンセルしますか？';

/** What a move that asks first will do (and the cancel's note for the member). */
function MoveDetails({ asking, items, coins }: { asking: string; items: number; coins: number }) {
  return (
    <>
      {asking === 'convertReturned' ? (
        <p className="text-sm">
          返送された{items}枚を合計{coins.toLocaleString('ja-JP')}
          コインに交換し、この依頼を終えます。元に戻せません。会員にお知らせします。
        </p>
      ) : asking === 'return' ? (
        <p className="text-sm">
          荷物が届かず戻ってきたことを記録し、会員にお知らせします。その後「再発送する」か「コインに交換する」を選べます。
        </p>
      ) : (
        <>
          <p className="text-sm">
            カードは会員の獲得商品（保管中）に戻り、手数料は返金されます。会員にお知らせします。
          </p>
          <label className="text-xs font-bold">
            会員へのお知らせ（任意・500文字まで）
            <textarea
              name="noteForMember"
              rows={3}
              maxLength={500}
              className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
            />
          </label>
        </>
      )}
    </>
  );
}

/**
 * The ship form: the carrier and the tracking number. While an inquiry is open it asks first (`onAsk`),
 * and the dialog's button submits it with the inquiries seen.
 */
function ShipForm({
  carriers,
  asksFirst,
  onAsk,
  busy,
}: Pick<RequestData, 'carriers'> & { asksFirst: boolean; onAsk: () => void; busy: boolean }) {
  return (
    <Form
      method="post"
      id="desk-ship"
      className="mt-3 grid gap-3 rounded-xl bg-slate-50 p-3"
      onSubmit={(event) => {
        // While an inquiry is open, the sheet asks first; its button submits with the inquiries seen.
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (asksFirst && submitter?.getAttribute('name') !== INQUIRIES_SEEN_FIELD) {
          event.preventDefault();
          onAsk();
        }
      }}
    >
      <input type="hidden" name="intent" value="ship" />
      <label className="text-xs font-bold">
        運送会社
        <select
          name="carrier"
          required
          defaultValue=""
          className="mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm"
        >
          <option value="" disabled>
            選んでください
          </option>
          {carriers.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="text-xs font-bold">
        追跡番号
        <input
          name="trackingNumber"
          required
          inputMode="numeric"
          autoComplete="off"
          className="mt-1 block min-h-11 w-full rounded-lg border border-line px-3 font-mono text-sm"
        />
      </label>
      <div>
        <Button type="submit" loading={busy}>
          発送済みにする
        </Button>
      </div>
    </Form>
  );
}

/**
 * @example {canWrite ? <MovesSection request={r} carriers={carriers} inquiries={inquiries} answer={answer} coins={coins} /> : null}
 */
export function MovesSection({
  request: r,
  carriers,
  inquiries,
  answer,
  coins,
}: Pick<RequestData, 'request' | 'carriers' | 'inquiries'> & { answer: DeskActionData | undefined; coins: number }) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [asking, setAsking] = useState<string | null>(null);
  useEffect(() => {
    if (answer) setAsking(null);
  }, [answer]);
  const simple = r.actions.filter((a) => a.id !== 'ship' && a.id !== 'cancelByShop');
  const canShip = r.actions.some((a) => a.id === 'ship');
  const cancel = r.actions.find((a) => a.id === 'cancelByShop');
  const askLabel = r.actions.find((a) => a.id === asking)?.label ?? '';
  const question = asking === 'cancelByShop' ? CANCEL_QUESTION : `${askLabel}しますか？`;
  const seenInquiries = inquiries.map((q) => q.id).join(',');
  return (
    <>
      <section aria-labelledby="moves" className="rounded-2xl border border-line bg-white p-4">
        <h2 id="moves" className="text-base font-bold">
          操作
        </h2>
        {canShip ? (
          <ShipForm
            carriers={carriers}
            asksFirst={inquiries.length > 0}
            onAsk={() => setAsking('ship')}
            busy={busy('ship')}
          />
        ) : null}
        {simple.length > 0 ? (
          <div className="mt-3 flex flex-wrap gap-3">
            {simple.map((move) =>
              ASKS_FIRST.has(move.id) ? (
                <Button key={move.id} variant="secondary" onClick={() => setAsking(move.id)}>
                  {move.label}
                </Button>
              ) : (
                <Form method="post" key={move.id}>
                  <input type="hidden" name="intent" value={move.id} />
                  <Button type="submit" variant="secondary" loading={busy(move.id)}>
                    {move.label}
                  </Button>
                </Form>
              ),
            )}
          </div>
        ) : !canShip && !cancel ? (
          <p className="mt-2 text-sm text-muted">この状態で行える操作はありません。</p>
        ) : null}
        {cancel ? (
          <p className="mt-4 border-t border-line pt-3 text-right">
            <button
              type="button"
              onClick={() => setAsking('cancelByShop')}
              className="min-h-9 text-xs text-muted underline hover:text-danger"
            >
              この依頼をキャンセルする（運営）
            </button>
          </p>
        ) : null}
        <p className="mt-3 text-xs text-muted">
          操作するたびに会員へメールでお知らせし、監査ログに記録します。
          <Link to={`/admin/shipping/batch?id=${r.id}`} target="_blank" className="ml-1 underline">
            この依頼の納品書を印刷
          </Link>
        </p>
      </section>
      {asking === 'ship' ? (
        <ConfirmDialog
          title="お問い合わせが未完了のまま発送済みにしますか？"
          confirmLabel="確認して発送済みにする"
          formId="desk-ship"
          confirmName={INQUIRIES_SEEN_FIELD}
          confirmValue={seenInquiries}
          onCancel={() => setAsking(null)}
          busy={busy('ship')}
          testId="ship-confirmation"
          bodyClassName="mt-3 grid gap-3 text-sm"
        >
          <p>
            この依頼には、まだ完了していないお問い合わせがあります。会員が変更や取り消しを求めていないか確認してください。
          </p>
          <ul className="grid gap-1 rounded-lg bg-amber-50 p-3">
            {inquiries.map((q) => (
              <li key={q.id}>
                <Link to={`/admin/inquiries/${q.id}`} target="_blank" className="font-mono font-bold underline">
                  {q.reference}
                </Link>
                （{q.statusLabel}）{q.subject ? ` ${q.subject}` : ''}
              </li>
            ))}
          </ul>
        </ConfirmDialog>
      ) : asking ? (
        <ConfirmDialog
          title={question}
          confirmLabel={asking === 'cancelByShop' ? 'キャンセルする' : askLabel}
          confirmVariant={asking === 'cancelByShop' ? 'danger' : 'primary'}
          hidden={{ intent: asking }}
          onCancel={() => setAsking(null)}
          busy={busy(asking)}
          bodyClassName="mt-3 grid gap-3"
        >
          <MoveDetails asking={asking} items={r.items.length} coins={coins} />
        </ConfirmDialog>
      ) : null}
    </>
  );
}
