// A restricted member's statement (decision 084): each restriction with its reason category in the account
// policy's words, its dates and its appeal (the form, the reference, or the outcome with the operator's
// statement), then what the member holds at the shop: paid and free coins, and the prizes still here with
// their conversion value. Shown on /mypage/standing and on a banned member's /standing/:token alike.
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import {
  ACCOUNT_POLICY_PATH,
  APPEAL_DECISION_DAYS,
  APPEAL_OUTCOME_LABELS,
  RESTRICTION_CATEGORY_WORDS,
  RESTRICTION_KIND_LABELS,
} from '#modules/identity/browser';
import { formatMemberDateTime } from '#modules/kernel/dates';
import type { MemberStatement, StatementRestriction } from '#server/context';
import type { StandingActionData } from '~/controllers/standing.server';
import { AppLink } from '~/components/AppLink';
import { Button } from '~/components/Button';
import { FormAlert } from '~/components/FormField';
import { SettingsNotice } from '~/components/SettingsPage';

const n = (value: number) => value.toLocaleString('ja-JP');

const STATUS_LABELS = { pending: '未選択', kept: '保管中', shipping: '発送手続き中' } as const;

/** What each restriction leaves the member able to do (the account policy says the same). */
const KIND_EFFECTS = {
  hold: 'ログイン、お持ちのコインでオリパを引くこと、獲得商品のコインへの交換はできます。コインの購入と発送のご依頼は、解除までお受けできません。',
  ban: 'ログインできません。コインと獲得商品はアカウントに残ります（有効期限・保管期限は通常どおり進みます）。',
} as const;

export function StandingStatement({
  statement,
  answer,
}: {
  statement: MemberStatement;
  answer: StandingActionData | undefined;
}) {
  const inForce = statement.restrictions.filter((r) => r.inForce);
  return (
    <div className="flex flex-col gap-4" data-testid="standing-statement">
      {answer?.ok && <SettingsNotice message={answer.message} />}
      {answer && !answer.ok && !answer.restrictionId && <FormAlert message={answer.message} />}
      {statement.restrictions.length === 0 && (
        <p className="rounded-2xl bg-white p-5 text-sm shadow-sm">現在、このアカウントに利用制限はありません。</p>
      )}
      {statement.restrictions.map((restriction) => (
        <RestrictionCard key={restriction.id ?? 'chargeback'} restriction={restriction} answer={answer} />
      ))}
      <Holdings statement={statement} />
      <p className="text-center text-sm">
        <AppLink to={ACCOUNT_POLICY_PATH} className="text-primary-ink underline underline-offset-2">
          アカウントの利用制限について（制限中のコイン・獲得商品の扱い、異議申し立て）
        </AppLink>
      </p>
      {inForce.length > 0 && (
        <p className="text-center text-xs text-muted">
          ご不明な点は、お問い合わせフォームの種類「利用制限への異議申し立て」でもお送りいただけます。
        </p>
      )}
    </div>
  );
}

function RestrictionCard({
  restriction,
  answer,
}: {
  restriction: StatementRestriction;
  answer: StandingActionData | undefined;
}) {
  const words = RESTRICTION_CATEGORY_WORDS[restriction.category];
  const titleId = `restriction-${restriction.id ?? 'chargeback'}`;
  return (
    <section
      aria-labelledby={titleId}
      className={`rounded-2xl border-2 p-5 ${restriction.inForce ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-line bg-white'}`}
      data-testid="standing-restriction"
    >
      <h2 id={titleId} className="text-base font-black">
        {restriction.inForce
          ? `${RESTRICTION_KIND_LABELS[restriction.kind]}中です`
          : `${RESTRICTION_KIND_LABELS[restriction.kind]}は解除されました`}
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="font-bold">理由の区分</dt>
        <dd>
          {words.label}
          <span className="mt-0.5 block text-xs">{words.meaning}</span>
        </dd>
        {restriction.startedAt && (
          <>
            <dt className="font-bold">開始</dt>
            <dd>{formatMemberDateTime(restriction.startedAt)}</dd>
          </>
        )}
        {restriction.endedAt ? (
          <>
            <dt className="font-bold">解除</dt>
            <dd>{formatMemberDateTime(restriction.endedAt)}</dd>
          </>
        ) : (
          <>
            <dt className="font-bold">期間</dt>
            <dd>{restriction.until ? `${formatMemberDateTime(restriction.until)}まで` : '解除するまで'}</dd>
          </>
        )}
      </dl>
      {restriction.inForce && <p className="mt-3 text-sm">{KIND_EFFECTS[restriction.kind]}</p>}
      <Appeal restriction={restriction} answer={answer} />
    </section>
  );
}

function Appeal({
  restriction,
  answer,
}: {
  restriction: StatementRestriction;
  answer: StandingActionData | undefined;
}) {
  const { appeal } = restriction;
  if (restriction.id === null)
    return (
      <p className="mt-3 text-sm">
        決済事業者からの連絡による保留です。お心当たりがない場合や、お支払いを済ませた場合は、
        <AppLink to="/contact" className="underline underline-offset-2">
          お問い合わせフォーム
        </AppLink>
        （種類「コインの購入・お支払い」）からご連絡ください。
      </p>
    );
  if (appeal?.outcome)
    return (
      <div className="mt-4 rounded-xl bg-white p-4 text-sm text-ink" data-testid="appeal-outcome">
        <p className="font-bold">{`異議申し立ての結果: ${APPEAL_OUTCOME_LABELS[appeal.outcome]}`}</p>
        {appeal.decidedAt && <p className="text-xs text-muted">{`${formatMemberDateTime(appeal.decidedAt)}に判断`}</p>}
        <p className="mt-2 whitespace-pre-wrap">{appeal.statement}</p>
      </div>
    );
  if (appeal)
    return (
      <p className="mt-4 rounded-xl bg-white p-4 text-sm text-ink" role="status" data-testid="appeal-pending">
        {`異議申し立てを受け付けています（受付番号 ${appeal.reference ?? '—'}、${formatMemberDateTime(appeal.at)}）。原則${APPEAL_DECISION_DAYS}日以内に、結果と理由をメールとこのページでお知らせします。`}
      </p>
    );
  if (!restriction.canAppeal)
    return restriction.inForce && restriction.appealUntil ? (
      <p className="mt-3 text-sm">
        {`異議申し立ての受付期間（${formatMemberDateTime(restriction.appealUntil)}まで）を過ぎました。`}
      </p>
    ) : null;
  return <AppealForm restriction={restriction} answer={answer} />;
}

function AppealForm({
  restriction,
  answer,
}: {
  restriction: StatementRestriction;
  answer: StandingActionData | undefined;
}) {
  const navigation = useNavigation();
  const [length, setLength] = useState(0);
  const busy = navigation.state === 'submitting' && navigation.formData?.get('restrictionId') === restriction.id;
  const error = answer && !answer.ok && answer.restrictionId === restriction.id ? answer.message : undefined;
  const fieldId = `appeal-${restriction.id}`;
  return (
    <Form method="post" className="mt-4 flex flex-col gap-2 rounded-xl bg-white p-4 text-ink" noValidate>
      <input type="hidden" name="intent" value="appeal" />
      <input type="hidden" name="restrictionId" value={restriction.id ?? ''} />
      <label htmlFor={fieldId} className="text-sm font-bold">
        異議を申し立てる
      </label>
      <p id={`${fieldId}-hint`} className="text-xs text-muted">
        {`制限が誤りだと思われる理由をお書きください。この制限への異議申し立ては1回だけ送れます（${formatMemberDateTime(restriction.appealUntil!)}まで）。制限を行ったスタッフとは別のスタッフが判断します。`}
      </p>
      <textarea
        id={fieldId}
        name="message"
        rows={5}
        maxLength={4000}
        onChange={(event) => setLength(event.currentTarget.value.length)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${fieldId}-hint${error ? ` ${fieldId}-error` : ''}`}
        className={`rounded-xl border bg-white px-4 py-3 text-base leading-relaxed outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-red-500' : 'border-line'}`}
      />
      <p className="text-right text-xs text-muted" aria-live="polite">{`${n(length)} / 4,000文字`}</p>
      {error && (
        <p id={`${fieldId}-error`} role="alert" className="text-sm font-bold text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" loading={busy} fullWidth>
        異議申し立てを送信する
      </Button>
    </Form>
  );
}

function Holdings({ statement }: { statement: MemberStatement }) {
  const { coins, prizes } = statement;
  const held = prizes.counts.pending + prizes.counts.kept + prizes.counts.shipping;
  return (
    <section
      aria-labelledby="holdings-title"
      className="rounded-2xl bg-white p-5 shadow-sm"
      data-testid="standing-holdings"
    >
      <h2 id="holdings-title" className="text-base font-black">
        お持ちのコインと獲得商品の明細
      </h2>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-y-1.5 text-sm">
        <dt>有償コイン</dt>
        <dd className="text-right font-bold tabular-nums">{`${n(coins.paid)}枚`}</dd>
        <dt>無償コイン</dt>
        <dd className="text-right font-bold tabular-nums">{`${n(coins.free)}枚`}</dd>
        <dt>獲得商品（ショップで保管・発送中）</dt>
        <dd className="text-right font-bold tabular-nums">{`${n(held)}点`}</dd>
        <dt>獲得商品の交換価値</dt>
        <dd className="text-right font-bold tabular-nums">{`${n(prizes.value)}コイン`}</dd>
      </dl>
      {prizes.lines.length > 0 && (
        <ul className="mt-3 divide-y divide-line border-t border-line text-sm">
          {prizes.lines.map((line, index) => (
            <li key={index} className="flex items-center justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className="block truncate font-bold">{line.name}</span>
                <span className="text-xs text-muted">{`${line.tierLabel}・${STATUS_LABELS[line.status]}`}</span>
              </span>
              <span className="shrink-0 tabular-nums">{`${n(line.conversionValue)}コイン`}</span>
            </li>
          ))}
        </ul>
      )}
      {prizes.more > 0 && <p className="mt-2 text-xs text-muted">{`ほか${n(prizes.more)}点`}</p>}
    </section>
  );
}
