// The member page's restrictions (decision 084): each hold or ban with the category the member was told, its
// dates, and its appeal: the reference (read on the inquiry desk), then the decision form for an operator
// other than the one who restricted (continue or lift, with a statement mailed to the member; it cannot be
// changed afterwards, so it asks first), or the decision as recorded. A banned member can be sent a fresh
// statement link.
import { useEffect, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import type { MemberActionData } from '~/controllers/admin-members.server';
import type { RestrictionRow } from '~/controllers/admin-member-restriction.server';
import { APPEAL_STATEMENT_MAX } from '#modules/identity/browser';
import { formatStaffDate } from '#modules/kernel/dates';
import { Section } from './member-parts';

export function RestrictionsSection({
  restrictions,
  actionable,
  answer,
}: {
  restrictions: RestrictionRow[];
  actionable: boolean;
  answer: MemberActionData | undefined;
}) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const bannedNow = restrictions.some((r) => r.kind === 'ban' && r.inForce);
  return (
    <Section id="restrictions" title="利用制限と異議申し立て">
      <p className="mt-1 text-xs text-muted">
        会員に伝えた理由の区分と、会員からの異議申し立て。判断は制限を行ったスタッフ以外が行い、結果と説明は会員にメールで届きます。
      </p>
      {restrictions.length === 0 ? (
        <p className="mt-3 text-sm">利用制限の記録はありません。</p>
      ) : (
        <ul className="mt-3 grid gap-3">
          {restrictions.map((r) => (
            <li key={r.id} className="rounded-xl border border-line p-3 text-sm" data-testid="restriction-row">
              <p className="font-bold">
                {r.kindLabel}（{r.categoryLabel}）{r.inForce ? '・継続中' : '・終了'}
              </p>
              <p className="text-xs text-muted">
                {formatStaffDate(r.startedAt)}から
                {r.until ? `・${formatStaffDate(r.until)}まで` : ''}
                {r.endedAt ? `・${formatStaffDate(r.endedAt)}に終了` : ''}
              </p>
              <AppealPart row={r} actionable={actionable} busy={busy('appealDecide')} answer={answer} />
            </li>
          ))}
        </ul>
      )}
      <ActionAnswer className="mt-2" answer={answer} form="appealDecide" />
      {actionable && bannedNow ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="restrictionLink" />
          <Button type="submit" variant="secondary" loading={busy('restrictionLink')}>
            明細のリンクを再送する
          </Button>
        </Form>
      ) : null}
      <ActionAnswer className="mt-2" answer={answer} form="restrictionLink" />
    </Section>
  );
}

function AppealPart({
  row,
  actionable,
  busy,
  answer,
}: {
  row: RestrictionRow;
  actionable: boolean;
  busy: boolean;
  answer: MemberActionData | undefined;
}) {
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (answer) setAsking(false);
  }, [answer]);
  const { appeal } = row;
  if (!appeal) return <p className="mt-2 text-xs">異議申し立てはありません。</p>;
  const thread = (
    <Link to={`/admin/inquiries/${appeal.inquiryId}`} className="underline">
      {`異議申し立て ${appeal.reference ?? ''}（${formatStaffDate(appeal.at)}）を読む`}
    </Link>
  );
  if (appeal.outcomeLabel)
    return (
      <div className="mt-2 grid gap-1">
        <p>{thread}</p>
        <p className="font-bold">
          判断：{appeal.outcomeLabel}
          {appeal.decidedAt ? `（${formatStaffDate(appeal.decidedAt)}）` : ''}
        </p>
        <p className="whitespace-pre-wrap text-xs">{appeal.statement}</p>
      </div>
    );
  const formId = `appeal-${row.id}`;
  return (
    <div className="mt-2 grid gap-2">
      <p>{thread}</p>
      {!actionable ? null : !row.mayDecide ? (
        <p className="text-xs text-muted">この制限を行ったため、判断は別のスタッフが行います。</p>
      ) : (
        <Form id={formId} method="post" className="grid gap-2" onSubmit={(event) => !asking && event.preventDefault()}>
          <input type="hidden" name="restrictionId" value={row.id} />
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="text-xs font-bold">判断</legend>
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" name="outcome" value="upheld" required /> 制限を継続
            </label>
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" name="outcome" value="lifted" required /> 制限を解除
            </label>
          </fieldset>
          <label className="text-xs font-bold">
            会員への説明（必須・会員にメールで届きます）
            <textarea
              name="statement"
              rows={4}
              maxLength={APPEAL_STATEMENT_MAX}
              required
              className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
            />
          </label>
          <div>
            <Button variant="secondary" onClick={() => setAsking(true)}>
              判断を送る
            </Button>
          </div>
        </Form>
      )}
      {asking ? (
        <ConfirmDialog
          title="この判断を会員に送りますか？"
          confirmLabel="判断を送る"
          formId={formId}
          confirmName="intent"
          confirmValue="appealDecide"
          onCancel={() => setAsking(false)}
          busy={busy}
        >
          <p className="text-sm">
            判断はあとから変更できません。「制限を解除」なら、この利用制限をすぐに解除します。結果と説明は会員にメールで届き、お問い合わせは完了になります。
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
