// /admin/signals (`signals:read`): the fraud signals the job risk.signals raised (the same device,
// shipping address or phone number behind several accounts, draws or purchases above the 24-hour
// thresholds, chargebacks), filtered by kind and status, each with its evidence and links to the
// members it names. With members:write: a decision — 問題なし, 購入・発送停止, 利用停止 — each asked
// first in a sheet, recorded with its audit entries in one transaction (docs/decisions/029).
import { useEffect, useState } from 'react';
import { useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/signals';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { EmptyState, FilterBar, FilterSelect } from '~/components/admin/ListPage';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { signalsAction, signalsLoader, type SignalActionData } from '~/controllers/admin-signals.server';

export const handle = { title: '不正検知' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return signalsLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return signalsAction(context.get(shopRequestContext), request);
}

type Decision = 'clear' | 'hold' | 'ban';

const QUESTIONS: Record<Decision, string> = {
  clear: 'このシグナルを「問題なし」にしますか？',
  hold: 'この会員の購入・発送を停止しますか？',
  ban: 'この会員を利用停止にしますか？',
};

const EXPLAIN: Record<Decision, string> = {
  clear:
    '会員には何も起きません。同じ配送先・端末・電話番号にさらにアカウントが増えたときは、もう一度「未対応」になります。',
  hold: '会員はコインの購入と発送の申し込みができなくなります（会員ページの停止の解除で戻せます）。',
  ban: 'ログインできなくなり、すべての端末からログアウトされます。',
};

const input = 'mt-1 block w-full rounded-lg border border-line bg-white p-2 text-sm font-normal';

/** One signal: its kind and state, its evidence, the members it names, and the decisions left to take. */
function SignalCard({
  signal: s,
  canDecide,
  onAsk,
}: {
  signal: Route.ComponentProps['loaderData']['items'][number];
  canDecide: boolean;
  onAsk: (decision: Decision) => void;
}) {
  return (
    <li className="rounded-2xl border border-line bg-white p-4 text-sm">
      <p className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-bold">{s.kindLabel}</span>
        <span
          className={`rounded px-2 py-0.5 text-xs font-bold ${s.status === 'open' ? 'bg-red-700 text-white' : 'bg-slate-100'}`}
        >
          {s.statusLabel}
        </span>
      </p>
      <p className="mt-2 text-base font-bold">{s.text}</p>
      {s.detail ? <p className="mt-1 break-all text-xs text-muted">{s.detail}</p> : null}
      <p className="mt-1">
        会員：
        <MemberTag tag={s.member.tag} memberId={s.member.id} /> <span className="text-muted">{s.member.email}</span>
      </p>
      {s.others.length > 0 ? (
        <p className="mt-1">
          ほかのアカウント：
          {s.others.map((o, i) => (
            <span key={o.id}>
              {i > 0 ? '、' : ''}
              <MemberTag tag={o.tag} memberId={o.id} />
            </span>
          ))}
        </p>
      ) : null}
      <p className="mt-1 text-xs text-muted">
        初回検知：{formatStaffDateTime(s.firstSeen)}・最終検知：{formatStaffDateTime(s.lastSeen)}
        {s.decidedAt ? `・判断：${s.decidedLabel ?? ''}（${formatStaffDateTime(s.decidedAt)}）` : ''}
        {s.decisionNote ? `・理由：${s.decisionNote}` : ''}
      </p>
      {canDecide && (s.status === 'open' || s.status === 'held') ? (
        <div className="mt-3 flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => onAsk('clear')}>
            問題なし
          </Button>
          {s.status === 'open' ? (
            <Button variant="secondary" onClick={() => onAsk('hold')}>
              購入・発送を停止
            </Button>
          ) : null}
          <Button variant="danger" onClick={() => onAsk('ban')}>
            利用停止
          </Button>
        </div>
      ) : null}
    </li>
  );
}

export default function SignalsPage({ loaderData }: Route.ComponentProps) {
  const { items, kinds, statuses, filter, error, canDecide, nextHref } = loaderData;
  const answer = useActionData<SignalActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const [asking, setAsking] = useState<{ id: number; decision: Decision } | null>(null);
  useEffect(() => {
    if (answer?.ok) setAsking(null);
  }, [answer]);
  const target = asking ? items.find((s) => s.id === asking.id) : undefined;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">不正検知</h1>
      <p className="mt-1 text-sm text-muted">
        シグナルは数分ごとにバックグラウンドで集計されます（この画面を開いても集計はしません）。判断は監査ログに記録されます。
      </p>
      <FilterBar
        submitVariant="primary"
        clearTo="/admin/signals"
        clearLabel="未対応に戻す"
        filterError={error}
        fallbackNote={null}
      >
        <FilterSelect label="種類" name="kind" defaultValue={filter.kind} options={kinds} />
        <FilterSelect label="状態" name="status" defaultValue={filter.status} options={statuses} />
      </FilterBar>
      {asking ? null : <ActionAnswer answer={answer} className="mt-3" />}
      {items.length === 0 ? (
        <EmptyState>該当するシグナルはありません。</EmptyState>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {items.map((s) => (
            <SignalCard
              key={s.id}
              signal={s}
              canDecide={canDecide}
              onAsk={(decision) => setAsking({ id: s.id, decision })}
            />
          ))}
        </ul>
      )}
      {nextHref ? (
        <p className="mt-4">
          <AppLink to={nextHref} className="text-sm underline">
            さらに古いシグナル
          </AppLink>
        </p>
      ) : null}
      {asking && target ? (
        <ConfirmDialog
          title={QUESTIONS[asking.decision]}
          confirmLabel={
            asking.decision === 'clear' ? '問題なしにする' : asking.decision === 'hold' ? '停止する' : '利用停止にする'
          }
          confirmVariant={asking.decision === 'clear' ? 'primary' : 'danger'}
          hidden={{ id: target.id, decision: asking.decision }}
          busy={busy}
          onCancel={() => setAsking(null)}
        >
          <p className="text-sm">
            {target.member.tag ? `${target.member.tag.nickname}（${target.member.tag.code}）` : target.member.id} さん：
            {target.text}
          </p>
          <p className="text-sm text-muted">{EXPLAIN[asking.decision]}</p>
          <label className="text-xs font-bold">
            {asking.decision === 'clear'
              ? '理由（任意・500文字まで）'
              : '理由（必須・500文字まで、会員には表示されません）'}
            <textarea name="note" rows={2} maxLength={500} required={asking.decision !== 'clear'} className={input} />
          </label>
          {asking.decision === 'ban' ? (
            <label className="text-xs font-bold">
              期限（空欄は無期限）
              <input type="date" name="until" className={input} />
            </label>
          ) : null}
          <ActionAnswer answer={answer?.error ? answer : undefined} form={String(target.id)} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
