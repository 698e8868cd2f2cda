// The member page's coins: the wallet by lot with expiry, the coin adjustment (coins:grant; above the
// threshold it waits for another admin) with its recent requests, and the ledger.
import { useEffect, useState } from 'react';
import { Link, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';
import { formatStaffDate, formatStaffDateTime } from '#modules/kernel/dates';
import type { MemberActionData } from '~/controllers/admin-members.server';
import { Section, SectionPager, Table, cell, n, type MemberData } from './member-parts';

/**
 * @example <WalletSection d={loaderData} />
 */
export function WalletSection({ d }: { d: MemberData }) {
  return (
    <Section id="wallet" title={`コイン残高 ${n(d.wallet.paid + d.wallet.free)}枚`}>
      <p className="mt-1 text-sm">
        有償 <span className="font-bold">{n(d.wallet.paid)}</span>枚・無償{' '}
        <span className="font-bold">{n(d.wallet.free)}</span>枚
        {d.wallet.expiringSoon.amount > 0 ? (
          <span className="ml-2 text-xs text-amber-900">30日以内に期限切れ {n(d.wallet.expiringSoon.amount)}枚</span>
        ) : null}
      </p>
      <Table head={['種類', '残り／付与', '理由', '付与', '有効期限']}>
        {d.wallet.lots.map((lot) => (
          <tr key={lot.id}>
            <td className={cell}>{lot.kindLabel}</td>
            <td className={cell}>
              {n(lot.remaining)}／{n(lot.amount)}
            </td>
            <td className={cell}>{lot.reasonLabel}</td>
            <td className={cell}>{formatStaffDate(lot.grantedAt)}</td>
            <td className={`${cell} ${lot.expired ? 'text-danger' : ''}`}>{formatStaffDateTime(lot.expiresAt)}</td>
          </tr>
        ))}
      </Table>
      {d.wallet.lotsTotal > d.wallet.lots.length ? (
        <p className="mt-1 text-xs text-muted">
          期限の近い{d.wallet.lots.length}件を表示（全{n(d.wallet.lotsTotal)}件）
        </p>
      ) : d.wallet.lots.length === 0 ? (
        <p className="mt-2 text-sm text-muted">残っているコインはありません。</p>
      ) : null}
    </Section>
  );
}

const EMPTY_ADJUSTMENT = { kind: 'free', amount: '', reason: '' };

/**
 * The adjustment form (asked first in a dialog) and the member's recent adjustment requests.
 * @example {d.can.grant && !p.deleted ? <AdjustSection d={loaderData} answer={answer} /> : null}
 */
export function AdjustSection({ d, answer }: { d: MemberData; answer: MemberActionData | undefined }) {
  const p = d.profile;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'adjust';
  const [asking, setAsking] = useState(false);
  const [adjust, setAdjust] = useState(EMPTY_ADJUSTMENT);
  useEffect(() => {
    if (answer) setAsking(false);
    if (answer?.form === 'adjust' && answer.ok) setAdjust(EMPTY_ADJUSTMENT);
  }, [answer]);
  const amount = Number(adjust.amount.normalize('NFKC').replace(/[\u2212,\s]/g, (c) => (c === '\u2212' ? '-' : '')));
  const needsApproval = Number.isFinite(amount) && Math.abs(amount) > d.threshold;
  return (
    <>
      <Section id="adjust" title="コインの調整">
        <p className="mt-1 text-xs text-muted">
          台帳に「調整」として記録され、理由は会員のコイン履歴に表示されます。
          {n(d.threshold)}枚を超える調整は、別の管理者の承認後に反映されます。
        </p>
        <form
          className="mt-3 grid gap-3 sm:grid-cols-[8rem_10rem_1fr]"
          onSubmit={(event) => {
            event.preventDefault();
            setAsking(true);
          }}
        >
          <label className="text-xs font-bold">
            種類
            <select
              value={adjust.kind}
              onChange={(e) => setAdjust({ ...adjust, kind: e.target.value })}
              className="mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm"
            >
              <option value="free">無償コイン</option>
              <option value="paid">有償コイン</option>
            </select>
          </label>
          <label className="text-xs font-bold">
            枚数（減らすときは -）
            <input
              value={adjust.amount}
              onChange={(e) => setAdjust({ ...adjust, amount: e.target.value })}
              required
              inputMode="numeric"
              placeholder="500 / -300"
              className="mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm"
            />
          </label>
          <label className="text-xs font-bold">
            理由（必須）
            <input
              value={adjust.reason}
              onChange={(e) => setAdjust({ ...adjust, reason: e.target.value })}
              required
              maxLength={200}
              className="mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm"
            />
          </label>
          <div className="sm:col-span-3">
            <Button type="submit" loading={busy}>
              {needsApproval ? '承認を申請する' : '調整する'}
            </Button>
          </div>
        </form>
        <ActionAnswer className="mt-2" answer={answer} form="adjust" />
        {d.adjustments.length > 0 ? (
          <Table head={['申請', '内容', '理由', '状態']}>
            {d.adjustments.map((a) => (
              <tr key={a.id}>
                <td className={cell}>
                  {formatStaffDateTime(a.requestedAt)}
                  <span className="block text-muted">{a.requestedLabel}</span>
                </td>
                <td className={cell}>
                  {a.kindLabel} {a.amount > 0 ? '+' : '−'}
                  {n(Math.abs(a.amount))}
                </td>
                <td className={cell}>{a.reason}</td>
                <td className={cell}>
                  {a.status === 'pending' ? (
                    <Link to="/admin/approvals" className="font-bold text-amber-900 underline">
                      承認待ち
                    </Link>
                  ) : a.status === 'applied' ? (
                    '反映済み'
                  ) : (
                    `却下${a.decisionNote ? `（${a.decisionNote}）` : ''}`
                  )}
                  {a.decidedLabel && a.status !== 'pending' ? (
                    <span className="block text-muted">{a.decidedLabel}</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
      </Section>
      {asking ? (
        <ConfirmDialog
          title="コインを調整しますか？"
          confirmLabel={needsApproval ? '承認を申請する' : '調整する'}
          confirmVariant={amount < 0 ? 'danger' : 'primary'}
          hidden={{
            intent: 'adjust',
            key: d.adjustmentKey,
            kind: adjust.kind,
            amount: adjust.amount,
            reason: adjust.reason,
          }}
          onCancel={() => setAsking(false)}
          busy={busy}
        >
          <p className="text-sm">
            {p.name} さんの{adjust.kind === 'paid' ? '有償' : '無償'}コインを
            <span className="font-bold">
              {Number.isFinite(amount) ? `${amount > 0 ? '+' : '−'}${n(Math.abs(amount))}枚` : adjust.amount}
            </span>
            調整します。理由：{adjust.reason}
          </p>
          {needsApproval ? (
            <p className="rounded-lg bg-amber-50 p-2 text-sm text-amber-900">
              {n(d.threshold)}枚を超えるため、申請として保存され、別の管理者が承認するまで反映されません。
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * @example <LedgerSection d={loaderData} />
 */
export function LedgerSection({ d }: { d: MemberData }) {
  return (
    <Section id="ledger" title="コイン台帳" wide>
      <Table head={['日時', '理由', '種類', '増減', '残高（有償／無償）', 'メモ・参照']}>
        {d.ledger.items.map((e) => (
          <tr key={e.id}>
            <td className={`${cell} whitespace-nowrap`}>{formatStaffDateTime(e.createdAt)}</td>
            <td className={cell}>{e.reasonLabel}</td>
            <td className={cell}>{e.kindLabel}</td>
            <td className={`${cell} font-bold ${e.amount < 0 ? 'text-danger' : ''}`}>
              {e.amount > 0 ? '+' : '−'}
              {n(Math.abs(e.amount))}
            </td>
            <td className={cell}>
              {n(e.paidAfter)}／{n(e.freeAfter)}
            </td>
            <td className={`${cell} break-all`}>
              {e.memo}
              {e.ref ? <span className="block font-mono text-muted">{e.ref}</span> : null}
            </td>
          </tr>
        ))}
      </Table>
      {d.ledger.items.length === 0 ? <p className="mt-2 text-sm text-muted">記録はありません。</p> : null}
      <SectionPager name="ledger" next={d.ledger.next} />
    </Section>
  );
}
