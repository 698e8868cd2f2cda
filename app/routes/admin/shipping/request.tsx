// /admin/shipping/:requestId: one request at the desk. First what the member asked about it (open
// inquiries), then the address (opening it is audited), the cards with set, number and grade, the
// timeline, the moves its status allows (ship asks for the carrier and the tracking number, and asks
// first while an inquiry is open; convert, return and the shop's cancel ask first; the cancel is a quiet
// control apart from the others), and the internal note the member never sees.
import { useEffect, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/request';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { Image } from '~/components/Image';
import { Sheet } from '~/components/Sheet';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { INQUIRIES_SEEN_FIELD } from '~/lib/admin-shipping';
import { shippingRequestAction, shippingRequestLoader, type DeskActionData } from '~/controllers/admin-shipping.server';

export const handle = { title: '発送依頼' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return shippingRequestLoader(context.get(shopRequestContext), request, params.requestId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return shippingRequestAction(context.get(shopRequestContext), request, params.requestId);
}

/** Moves that change what cannot simply be undone ask first, in a sheet. */
const ASKS_FIRST = new Set(['return', 'convertReturned', 'cancelByShop']);

/** The shop's cancel: asked in these words, and kept apart from the desk's everyday moves. */
const CANCEL_QUESTION = 'この依頼をキャンセルしますか？';

type OpenInquiries = Route.ComponentProps['loaderData']['inquiries'];

/** What the member asked about this request and nobody has closed yet: the first thing the desk reads. */
function OpenInquiriesBanner({ inquiries }: { inquiries: OpenInquiries }) {
  if (inquiries.length === 0) return null;
  return (
    <section
      aria-labelledby="open-inquiries"
      className="mt-3 rounded-2xl border-2 border-amber-500 bg-amber-50 p-4 text-sm"
      data-testid="open-inquiries"
    >
      <h2 id="open-inquiries" className="text-base font-black text-amber-900">
        {`この依頼へのお問い合わせ ${inquiries.length}件（未完了）`}
      </h2>
      <ul className="mt-2 grid gap-1">
        {inquiries.map((q) => (
          <li key={q.id}>
            <Link to={`/admin/inquiries/${q.id}`} className="font-mono font-bold underline">
              {q.reference}
            </Link>
            <span className="ml-2 rounded bg-white px-1.5 py-0.5 text-xs font-bold">{q.statusLabel}</span>
            {q.subject ? <span className="ml-2 break-all">{q.subject}</span> : null}
            <span className="ml-2 text-xs text-muted">{formatStaffDateTime(q.createdAt)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-amber-900">発送する前に内容を確認してください。</p>
    </section>
  );
}

function Answer({ answer }: { answer: DeskActionData | undefined }) {
  if (!answer) return null;
  return answer.error ? (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
      {answer.error}
    </p>
  ) : (
    <p role="status" className="rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
      {answer.ok}
    </p>
  );
}

export default function DeskRequestPage({ loaderData }: Route.ComponentProps) {
  const { request: r, carriers, canWrite, reportable, candidates, inquiries, members } = loaderData;
  const [reporting, setReporting] = useState<string | null>(null);
  const [resolution, setResolution] = useState<'substitute' | 'compensation'>('substitute');
  const reported = r.items.find((i) => i.prizeId === reporting) ?? null;
  const offered = reported ? (candidates[reported.conversionValue] ?? []) : [];
  const answer = useActionData<DeskActionData>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [asking, setAsking] = useState<string | null>(null);
  useEffect(() => {
    if (answer) setAsking(null);
    if (answer?.ok) setReporting(null);
  }, [answer]);
  const coins = r.items.reduce((sum, i) => sum + i.conversionValue, 0);
  const simple = r.actions.filter((a) => a.id !== 'ship' && a.id !== 'cancelByShop');
  const canShip = r.actions.some((a) => a.id === 'ship');
  const cancel = r.actions.find((a) => a.id === 'cancelByShop');
  const askLabel = r.actions.find((a) => a.id === asking)?.label ?? '';
  const question = asking === 'cancelByShop' ? CANCEL_QUESTION : `${askLabel}しますか？`;
  const seenInquiries = inquiries.map((q) => q.id).join(',');

  return (
    <div className="max-w-5xl">
      <p className="text-sm">
        <Link to="/admin/shipping" className="underline">
          発送デスクに戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-black">
          発送依頼 <span className="font-mono">{r.id.slice(0, 8)}</span>
        </h1>
        <span className="rounded bg-ink px-2 py-0.5 text-sm font-bold text-white">{r.statusLabel}</span>
        {r.late ? <span className="rounded bg-red-600 px-2 py-0.5 text-sm font-bold text-white">期限超過</span> : null}
      </div>
      <OpenInquiriesBanner inquiries={inquiries} />
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-bold">依頼ID</dt>
        <dd className="font-mono break-all">{r.id}</dd>
        <dt className="font-bold">会員</dt>
        <dd className="break-all">
          <MemberTag tag={members[r.memberId]} memberId={r.memberId} />
          <Link to={`/admin/shipping?memberId=${encodeURIComponent(r.memberId)}`} className="ml-3 text-xs underline">
            この会員の発送依頼
          </Link>
        </dd>
        <dt className="font-bold">受付</dt>
        <dd>{formatStaffDateTime(r.requestedAt)}</dd>
        <dt className="font-bold">発送予定日</dt>
        <dd>{r.promisedLabel}</dd>
        <dt className="font-bold">手数料</dt>
        <dd>{r.feeCoins.toLocaleString('ja-JP')}コイン</dd>
        {r.trackingNumber ? (
          <>
            <dt className="font-bold">追跡番号</dt>
            <dd>
              {r.carrierName} {r.trackingNumber}{' '}
              {r.trackingUrl ? (
                <a href={r.trackingUrl} target="_blank" rel="noreferrer" className="underline">
                  追跡ページ
                </a>
              ) : null}
            </dd>
          </>
        ) : null}
        {r.compensatedAt ? (
          <>
            <dt className="font-bold">遅延補償</dt>
            <dd>{r.compensationCoins.toLocaleString('ja-JP')}コイン（お支払い済み）</dd>
          </>
        ) : null}
      </dl>

      <div className="mt-4">
        <Answer answer={answer} />
      </div>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="address" className="rounded-2xl border border-line bg-white p-4">
          <h2 id="address" className="text-base font-bold">
            お届け先
          </h2>
          <p className="mt-2 text-sm leading-relaxed">
            〒{r.address.postalCode.slice(0, 3)}-{r.address.postalCode.slice(3)}
            <br />
            {r.address.prefecture}
            {r.address.city}
            {r.address.town}
            {r.address.building ? (
              <>
                <br />
                {r.address.building}
              </>
            ) : null}
            <br />
            <span className="font-bold">{r.address.name} 様</span>（{r.address.nameKana}）
            <br />
            電話 {r.address.phone}
          </p>
          <p className="mt-2 text-xs text-muted">この住所を開いたことは監査ログに記録されています。</p>
        </section>

        {canWrite ? (
          <section aria-labelledby="moves" className="rounded-2xl border border-line bg-white p-4">
            <h2 id="moves" className="text-base font-bold">
              操作
            </h2>
            {canShip ? (
              <Form
                method="post"
                id="desk-ship"
                className="mt-3 grid gap-3 rounded-xl bg-slate-50 p-3"
                onSubmit={(event) => {
                  // While an inquiry is open, the sheet asks first; its button submits with the inquiries seen.
                  const submitter = (event.nativeEvent as SubmitEvent).submitter;
                  if (inquiries.length > 0 && submitter?.getAttribute('name') !== INQUIRIES_SEEN_FIELD) {
                    event.preventDefault();
                    setAsking('ship');
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
                  <Button type="submit" loading={busy('ship')}>
                    発送済みにする
                  </Button>
                </div>
              </Form>
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
        ) : null}
      </div>

      <section aria-labelledby="cards" className="mt-4 rounded-2xl border border-line bg-white p-4">
        <h2 id="cards" className="text-base font-bold">
          カード（{r.items.length}枚・交換価値 合計{coins.toLocaleString('ja-JP')}コイン）
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {r.items.map((item) => (
            <li key={item.prizeId} className="flex gap-3 text-sm">
              <Image
                src={item.imagePath}
                alt={item.cardName}
                width={72}
                height={100}
                className="h-[100px] w-[72px] shrink-0 rounded"
              />
              <span>
                <span className="block font-bold">{item.cardName}</span>
                <span className="block text-xs">
                  {[item.cardSet, item.cardNumber, item.rarity, item.cardGrade].filter(Boolean).join('・') || '—'}
                </span>
                <span className="block text-xs text-muted">
                  {item.gachaTitle}・{item.tierLabel}・{item.conversionValue.toLocaleString('ja-JP')}コイン
                </span>
                {item.substitute ? (
                  <span className="mt-1 block rounded bg-amber-50 px-2 py-1 text-xs font-bold text-amber-900">
                    代わりに送るカード:{' '}
                    {[
                      item.substitute.cardName,
                      item.substitute.cardSet,
                      item.substitute.cardNumber,
                      item.substitute.cardGrade,
                    ]
                      .filter(Boolean)
                      .join(' ')}
                  </span>
                ) : reportable ? (
                  <button
                    type="button"
                    onClick={() => {
                      setResolution(
                        (candidates[item.conversionValue] ?? []).length > 0 ? 'substitute' : 'compensation',
                      );
                      setReporting(item.prizeId);
                    }}
                    className="mt-1 min-h-9 text-xs font-bold text-danger underline"
                  >
                    在庫なし・破損を報告
                  </button>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="timeline" className="rounded-2xl border border-line bg-white p-4">
          <h2 id="timeline" className="text-base font-bold">
            これまでの流れ
          </h2>
          <ol className="mt-3 flex flex-col gap-3 border-l-2 border-line pl-4">
            {r.events.map((e, index) => (
              <li key={`${e.at}-${index}`} className="text-sm">
                <span className="block font-bold">
                  {e.statusLabel}
                  <span className="ml-2 text-xs font-normal text-muted">
                    {e.actor === 'member' ? '会員' : e.actor === 'staff' ? 'スタッフ' : '自動'}
                  </span>
                </span>
                <span className="block text-xs text-muted">{formatStaffDateTime(e.at)}</span>
                {e.note ? <span className="block text-xs">{e.note}</span> : null}
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="note" className="rounded-2xl border border-line bg-white p-4">
          <h2 id="note" className="text-base font-bold">
            社内メモ
          </h2>
          <p className="mt-1 text-xs text-muted">会員には表示されません。</p>
          {canWrite ? (
            <Form method="post" className="mt-2 grid gap-2">
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="internal-note" className="sr-only">
                社内メモ
              </label>
              <textarea
                id="internal-note"
                name="note"
                rows={4}
                maxLength={2000}
                defaultValue={r.internalNote ?? ''}
                key={r.internalNote ?? ''}
                className="w-full rounded-lg border border-line p-2 text-sm"
              />
              <div>
                <Button type="submit" variant="secondary" loading={busy('note')}>
                  メモを保存
                </Button>
              </div>
            </Form>
          ) : (
            <p className="mt-2 text-sm whitespace-pre-wrap">{r.internalNote ?? '（なし）'}</p>
          )}
        </section>
      </div>

      {reported ? (
        <Sheet
          title={`「${reported.cardName}」を送れないとき`}
          onClose={() => setReporting(null)}
          busy={busy('reportMissing')}
        >
          <Form method="post" className="grid gap-3 text-sm">
            <input type="hidden" name="intent" value="reportMissing" />
            <input type="hidden" name="prizeId" value={reported.prizeId} />
            {answer?.form === 'reportMissing' && answer.error ? (
              <p role="alert" className="rounded-lg bg-red-50 p-3 font-bold text-danger">
                {answer.error}
              </p>
            ) : null}
            <fieldset className="grid gap-1">
              <legend className="text-xs font-bold">カードの状態</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="condition" value="missing" defaultChecked className="size-4" />{' '}
                在庫なし（見つからない）
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="condition" value="damaged" className="size-4" /> 破損（送れる状態ではない）
              </label>
            </fieldset>
            <fieldset className="grid gap-2">
              <legend className="text-xs font-bold">
                会員への対応（交換価値 {reported.conversionValue.toLocaleString('ja-JP')}コイン以上）
              </legend>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="resolution"
                  value="substitute"
                  checked={resolution === 'substitute'}
                  onChange={() => setResolution('substitute')}
                  disabled={offered.length === 0}
                  className="size-4"
                />{' '}
                同等以上のカードを代わりに送る{offered.length === 0 ? '（在庫に候補がありません）' : ''}
              </label>
              {resolution === 'substitute' && offered.length > 0 ? (
                <label className="text-xs font-bold">
                  代わりのカード
                  <select
                    name="stockCardId"
                    required
                    className="mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm"
                  >
                    {offered.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="resolution"
                  value="compensation"
                  checked={resolution === 'compensation'}
                  onChange={() => setResolution('compensation')}
                  className="size-4"
                />{' '}
                コインで補償する（このカードは依頼から外れます）
              </label>
              {resolution === 'compensation' ? (
                <label className="text-xs font-bold">
                  補償コイン（無償コイン）
                  <input
                    name="coins"
                    inputMode="numeric"
                    defaultValue={reported.conversionValue}
                    required
                    className="mt-1 block min-h-11 w-40 rounded-lg border border-line px-3 text-sm"
                  />
                </label>
              ) : null}
            </fieldset>
            <label className="text-xs font-bold">
              会員へのメッセージ（任意・500文字まで）
              <textarea
                name="noteForMember"
                rows={2}
                maxLength={500}
                className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
              />
            </label>
            <p className="text-xs text-muted">
              元のカードは在庫から外れ、記録は監査ログに残ります。会員にはメールと発送状況でお知らせします。元に戻せません。
            </p>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="danger" loading={busy('reportMissing')}>
                記録して会員に知らせる
              </Button>
              <Button variant="secondary" onClick={() => setReporting(null)} disabled={busy('reportMissing')}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}

      {asking === 'ship' ? (
        <Sheet
          title="お問い合わせが未完了のまま発送済みにしますか？"
          onClose={() => setAsking(null)}
          busy={busy('ship')}
          testId="ship-confirmation"
        >
          <div className="mt-3 grid gap-3 text-sm">
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
            <div className="flex flex-wrap gap-3">
              <Button
                type="submit"
                form="desk-ship"
                name={INQUIRIES_SEEN_FIELD}
                value={seenInquiries}
                loading={busy('ship')}
              >
                確認して発送済みにする
              </Button>
              <Button variant="secondary" onClick={() => setAsking(null)} disabled={busy('ship')}>
                やめる
              </Button>
            </div>
          </div>
        </Sheet>
      ) : asking ? (
        <Sheet title={question} onClose={() => setAsking(null)} busy={busy(asking)}>
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value={asking} />
            {asking === 'convertReturned' ? (
              <p className="text-sm">
                返送された{r.items.length}枚を合計{coins.toLocaleString('ja-JP')}
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
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant={asking === 'cancelByShop' ? 'danger' : 'primary'} loading={busy(asking)}>
                {asking === 'cancelByShop' ? 'キャンセルする' : askLabel}
              </Button>
              <Button variant="secondary" onClick={() => setAsking(null)} disabled={busy(asking)}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </div>
  );
}
