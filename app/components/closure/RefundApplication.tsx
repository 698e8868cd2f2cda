// The 払戻し application when the shop closes (decision 085, 資金決済法 第20条): the member's balances and the
// refundable yen, their application (the account masked) and its transfer, and the bank account form, which
// asks first. /mypage/refund shows it to a signed-in member; /standing/<token> to a banned member, whose mailed
// link is their only way in (a ban has no session). The form posts to the page it is on.
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { formatMemberDateTime } from '#modules/kernel/dates';
import type { RefundActionData, RefundPageData } from '~/controllers/closure-refund.server';

type Closure = NonNullable<RefundPageData['closure']>;

const yen = (n: number) => `${n.toLocaleString('ja-JP')}円`;
const coins = (n: number) => `${n.toLocaleString('ja-JP')}枚`;

function RefundBalance({ paid, free, closure }: { paid: number; free: number; closure: Closure }) {
  return (
    <section aria-labelledby="refund-balance" className="rounded-2xl border border-line bg-white p-4">
      <h2 id="refund-balance" className="text-base font-bold">
        あなたの残高
      </h2>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
        <dt>有償コイン</dt>
        <dd className="text-right font-bold" data-testid="refund-paid">
          {coins(paid)}
        </dd>
        <dt>無償コイン（払戻しの対象外）</dt>
        <dd className="text-right">{coins(free)}</dd>
        <dt className="font-bold">払戻し額（いまの残高で）</dt>
        <dd className="text-right text-lg font-black" data-testid="refund-yen">
          {yen(paid)}
        </dd>
      </dl>
      <p className="mt-2 text-xs text-muted">
        {closure.phase === 'announced'
          ? `販売終了（${closure.salesStopText}）までにコインを使うと、その分だけ払戻し額が減ります。お振込みは販売終了後、その時点の未使用の有償コインについて行います。`
          : 'お振込みする額は、お振込みの時点の未使用の有償コインです。'}
      </p>
    </section>
  );
}

/**
 * The balances, the application and the form. `intent` is sent with the form where the page takes more than one
 * kind of post (the statement link's page also takes an appeal).
 */
export function RefundApplication({
  data,
  answer,
  intent,
}: {
  data: RefundPageData & { closure: Closure };
  answer: RefundActionData | undefined;
  intent?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const [confirming, setConfirming] = useState(false);
  const { closure, paid, free, refund } = data;
  const typed = answer?.typed ?? {};
  const open = closure.phase !== 'refunds_over';
  return (
    <>
      <RefundBalance paid={paid} free={free} closure={closure} />

      {answer?.done ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
          {answer.done}
        </p>
      ) : null}
      <FormAlert message={answer?.formError} />

      {refund ? (
        <section aria-labelledby="refund-status" className="rounded-2xl border border-line bg-white p-4 text-sm">
          <h2 id="refund-status" className="text-base font-bold">
            {refund.paidAt ? 'お振込み済み' : 'お申し込み済み（お振込み待ち）'}
          </h2>
          <dl className="mt-2 grid gap-1" data-testid="refund-status">
            <div>
              <dt className="inline font-bold">お申し込み日時：</dt>
              <dd className="inline">{formatMemberDateTime(refund.appliedAt)}</dd>
            </div>
            <div>
              <dt className="inline font-bold">振込先：</dt>
              <dd className="inline">
                {`${refund.bankName} ${refund.branchName} ${refund.accountType} ${refund.accountNumberMasked} ${refund.accountHolder}`}
              </dd>
            </div>
            {refund.paidAt ? (
              <div>
                <dt className="inline font-bold">お振込み：</dt>
                <dd className="inline">{`${yen(refund.refundJpy ?? 0)}（${formatMemberDateTime(refund.paidAt)}）`}</dd>
              </div>
            ) : null}
          </dl>
        </section>
      ) : null}

      {open && !refund?.paidAt ? (
        <Form
          method="post"
          className="flex flex-col gap-3 rounded-2xl border border-line bg-white p-4"
          onSubmit={(event) => {
            if (!confirming) {
              event.preventDefault();
              setConfirming(true);
            }
          }}
        >
          {intent ? <input type="hidden" name="intent" value={intent} /> : null}
          <h2 className="text-base font-bold">{refund ? '振込先の口座を変更する' : '振込先の口座'}</h2>
          <TextField
            name="bankName"
            label="銀行名"
            defaultValue={typed.bankName}
            autoComplete="off"
            required
            maxLength={40}
          />
          <TextField
            name="branchName"
            label="支店名"
            defaultValue={typed.branchName}
            autoComplete="off"
            required
            maxLength={40}
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor="field-accountType" className="text-sm font-bold">
              口座種別
            </label>
            <select
              id="field-accountType"
              name="accountType"
              defaultValue={typed.accountType || '普通'}
              className="min-h-12 rounded-xl border border-line bg-white px-4 text-base"
            >
              {data.accountTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <TextField
            name="accountNumber"
            label="口座番号"
            hint="7桁の数字（7桁に満たない場合は、そのまま入力してください）"
            defaultValue={typed.accountNumber}
            inputMode="numeric"
            autoComplete="off"
            required
            maxLength={10}
          />
          <TextField
            name="accountHolder"
            label="口座名義（カナ）"
            hint="通帳の表記どおり、カタカナで入力してください（例：ヤマダ タロウ）。"
            defaultValue={typed.accountHolder}
            autoComplete="off"
            required
            maxLength={60}
          />
          {confirming ? (
            <div role="alertdialog" aria-labelledby="refund-confirm" className="rounded-xl bg-amber-50 p-3 text-sm">
              <p id="refund-confirm" className="font-bold">
                この口座で払戻しを申し込みますか？
              </p>
              <p className="mt-1">
                口座名義がご本人と違う場合など、お振込みできないことがあります。内容をご確認ください。
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button type="submit" loading={busy}>
                  申し込む
                </Button>
                <Button type="button" variant="plain" onClick={() => setConfirming(false)}>
                  やめる
                </Button>
              </div>
            </div>
          ) : (
            <Button type="submit" size="lg" fullWidth>
              {refund ? '内容を確認して変更する' : '内容を確認する'}
            </Button>
          )}
        </Form>
      ) : null}
      {!open ? <p className="text-sm">払戻しの申出期限を過ぎました。</p> : null}
    </>
  );
}
