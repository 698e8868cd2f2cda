// One desk request's cards, with set, number and grade, and the report of a card that cannot be sent
// (missing or damaged): a substitute of at least its value from stock, or coins.
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import type { Route } from './+types/request';
import { Image } from '~/components/Image';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { DeskActionData } from '~/controllers/admin-shipping.server';

type RequestData = Route.ComponentProps['loaderData'];
type Item = RequestData['request']['items'][number];

/** The report's fields: the card's condition, what the member gets instead, and a message. */
function ReportFields({
  reported,
  offered,
  resolution,
  setResolution,
}: {
  reported: Item;
  offered: RequestData['candidates'][number];
  resolution: 'substitute' | 'compensation';
  setResolution: (resolution: 'substitute' | 'compensation') => void;
}) {
  return (
    <>
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
    </>
  );
}

/**
 * @example <CardsSection request={r} reportable={reportable} candidates={candidates} answer={answer} coins={coins} />
 */
export function CardsSection({
  request: r,
  reportable,
  candidates,
  answer,
  coins,
}: Pick<RequestData, 'request' | 'reportable' | 'candidates'> & { answer: DeskActionData | undefined; coins: number }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'reportMissing';
  const [reporting, setReporting] = useState<string | null>(null);
  const [resolution, setResolution] = useState<'substitute' | 'compensation'>('substitute');
  useEffect(() => {
    if (answer?.ok) setReporting(null);
  }, [answer]);
  const reported = r.items.find((i) => i.prizeId === reporting) ?? null;
  const offered = reported ? (candidates[reported.conversionValue] ?? []) : [];
  return (
    <>
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
      {reported ? (
        <ConfirmDialog
          title={`「${reported.cardName}」を送れないとき`}
          confirmLabel="記録して会員に知らせる"
          confirmVariant="danger"
          hidden={{ intent: 'reportMissing', prizeId: reported.prizeId }}
          onCancel={() => setReporting(null)}
          busy={busy}
          bodyClassName="grid gap-3 text-sm"
        >
          <ActionAnswer answer={answer?.error ? answer : undefined} form="reportMissing" />
          <ReportFields reported={reported} offered={offered} resolution={resolution} setResolution={setResolution} />
        </ConfirmDialog>
      ) : null}
    </>
  );
}
