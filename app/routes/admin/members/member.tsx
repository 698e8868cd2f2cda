// /admin/members/:memberId: one member for the operators. Profile and status, wallet by lot with
// expiry, the ledger, draws, prizes by status, shipping requests, purchases, sessions and staff notes,
// each section limited or paged on its own (the page stays fast for a member with thousands of rows).
// Actions by permission: a coin adjustment (coins:grant; above the threshold it waits for another
// admin), ban and unban, sign-out everywhere, purchase hold and its clearing, the age declaration and
// notes (members:write). Destructive ones ask first in a sheet.
import { useEffect, useState } from 'react';
import { Form, Link, useActionData, useLocation, useNavigation } from 'react-router';
import type { Route } from './+types/member';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { MemberTag } from '~/components/admin/MemberTag';
import { MemberStatusBadges } from '~/components/MemberStatusBadges';
import { formatStaffDate, formatStaffDateTime } from '#modules/kernel/dates';
import { memberPageAction, memberPageLoader, type MemberActionData } from '~/controllers/admin-members.server';

export const handle = { title: '会員詳細' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return memberPageLoader(context.get(shopRequestContext), request, params.memberId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return memberPageAction(context.get(shopRequestContext), request, params.memberId);
}

const n = (value: number) => value.toLocaleString('ja-JP');
const PRIZE_STATUS_LABELS: Record<string, string> = {
  pending: '未選択',
  kept: '保管中',
  converted: 'コイン交換済み',
  shipping: '発送手続き中',
};

function Answer({ answer, form }: { answer: MemberActionData | undefined; form: string }) {
  if (!answer || answer.form !== form) return null;
  return answer.error ? (
    <p role="alert" className="mt-2 rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
      {answer.error}
    </p>
  ) : (
    <p role="status" className="mt-2 rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
      {answer.ok}
    </p>
  );
}

function Section({
  id,
  title,
  children,
  wide,
}: {
  id: string;
  title: React.ReactNode;
  children: React.ReactNode;
  wide?: boolean;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`min-w-0 rounded-2xl border border-line bg-white p-4 ${wide ? 'lg:col-span-2' : ''}`}
    >
      <h2 id={id} className="text-base font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Table({ head, children }: { head: string[]; children: React.ReactNode }) {
  if (Array.isArray(children) && children.length === 0) return null;
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-xs">
        <thead className="text-muted">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="py-1 pr-3 font-bold whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

const cell = 'border-t border-line py-1.5 pr-3 align-top';

/** Which sheet is open: the destructive or weighty actions ask first. */
type Asking = null | 'adjust' | 'ban' | 'unban' | 'revokeSessions' | 'hold';

export default function MemberPage({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  const p = d.profile;
  const answer = useActionData<MemberActionData>();
  const navigation = useNavigation();
  const location = useLocation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const [asking, setAsking] = useState<Asking>(null);
  const [adjust, setAdjust] = useState({ kind: 'free', amount: '', reason: '' });
  useEffect(() => {
    if (answer) setAsking(null);
    if (answer?.form === 'adjust' && answer.ok) setAdjust({ kind: 'free', amount: '', reason: '' });
  }, [answer]);
  /** This page with one section's cursor changed (the others kept). */
  const pageWith = (name: string, value: string | number | null) => {
    const params = new URLSearchParams(location.search);
    if (value === null) params.delete(name);
    else params.set(name, String(value));
    if (name === 'prizes') params.delete('prizesAfter');
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ''}#${name === 'prizesAfter' ? 'prizes' : name}`;
  };
  const cursorSet = (name: string) => new URLSearchParams(location.search).has(name);
  const amount = Number(adjust.amount.normalize('NFKC').replace(/[\u2212,\s]/g, (c) => (c === '\u2212' ? '-' : '')));
  const needsApproval = Number.isFinite(amount) && Math.abs(amount) > d.threshold;
  const actionable = d.can.write && !d.self && !p.deleted;

  return (
    <div className="max-w-7xl">
      <p className="text-sm">
        <Link to="/admin/members" className="underline">
          会員検索に戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-black">{p.name}</h1>
        <MemberStatusBadges member={{ ...p, hold: d.hold?.label ?? null }} />
      </div>
      <Answer answer={answer} form="page" />

      <div className="mt-4 grid items-start gap-4 lg:grid-cols-2">
        <Section id="profile" title="プロフィール">
          <dl className="mt-2 grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="font-bold">会員ID</dt>
            <dd>
              <span className="font-mono tracking-wider" data-testid="member-code">
                {p.code}
              </span>
              <span className="ml-2 text-xs text-muted">（マイページに表示される番号）</span>
            </dd>
            <dt className="font-bold">内部ID</dt>
            <dd className="font-mono text-xs break-all">{p.id}</dd>
            <dt className="font-bold">メール</dt>
            <dd className="break-all">
              {p.email} <span className="text-xs text-muted">{p.emailVerified ? '（確認済み）' : '（未確認）'}</span>
            </dd>
            <dt className="font-bold">電話番号</dt>
            <dd>
              {p.phone ?? '未登録'}{' '}
              {p.phone ? (
                <span className="text-xs text-muted">{p.phoneNumberVerified ? '（SMS認証済み）' : '（未認証）'}</span>
              ) : null}
            </dd>
            <dt className="font-bold">役割</dt>
            <dd>
              {p.roleLabel}
              {p.role !== 'user' ? (p.twoFactorEnabled ? '（二段階認証あり）' : '（二段階認証なし）') : null}
            </dd>
            <dt className="font-bold">生年月日</dt>
            <dd>{p.birthday ? `${p.birthday}（${p.age}歳）` : '未登録'}</dd>
            <dt className="font-bold">年齢申告</dt>
            <dd>{p.declaredMinor === null ? '未申告' : p.declaredMinor ? '18歳未満' : '18歳以上'}</dd>
            <dt className="font-bold">登録</dt>
            <dd>{formatStaffDateTime(p.createdAt)}</dd>
            {p.banned ? (
              <>
                <dt className="font-bold text-danger">利用停止</dt>
                <dd>
                  {p.banReason ?? '理由なし'}
                  {p.banExpires ? `（${formatStaffDateTime(p.banExpires)}まで）` : '（無期限）'}
                </dd>
              </>
            ) : null}
            {d.hold ? (
              <>
                <dt className="font-bold text-amber-900">購入・発送停止</dt>
                <dd>
                  {d.hold.label}
                  {d.hold.reason ? `：${d.hold.reason}` : ''}
                  {d.hold.since ? `（${formatStaffDateTime(d.hold.since)}から）` : ''}
                </dd>
              </>
            ) : null}
          </dl>
          {d.self ? (
            <p className="mt-3 text-xs text-muted">
              自分自身のアカウントです。停止などの操作は別のスタッフが行います。
            </p>
          ) : null}
        </Section>

        {actionable ? (
          <Section id="account-actions" title="アカウントの操作">
            <p className="mt-1 text-xs text-muted">どの操作も監査ログに記録されます。</p>
            <div className="mt-3 flex flex-wrap gap-2">
              {p.banned ? (
                <Button variant="secondary" onClick={() => setAsking('unban')}>
                  利用停止を解除
                </Button>
              ) : (
                <Button variant="danger" onClick={() => setAsking('ban')}>
                  利用停止にする
                </Button>
              )}
              <Button variant="secondary" onClick={() => setAsking('revokeSessions')}>
                全端末からログアウト
              </Button>
              {d.hold ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="clearHold" />
                  <Button type="submit" variant="secondary" loading={busy('clearHold')}>
                    購入・発送停止を解除
                  </Button>
                </Form>
              ) : (
                <Button variant="secondary" onClick={() => setAsking('hold')}>
                  購入・発送を停止
                </Button>
              )}
            </div>
            {['ban', 'unban', 'revokeSessions', 'hold', 'clearHold'].map((f) => (
              <Answer key={f} answer={answer} form={f} />
            ))}
            <Form method="post" className="mt-4 flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="age" />
              <label className="text-xs font-bold">
                年齢申告の訂正
                <select
                  name="minor"
                  defaultValue={p.declaredMinor === null ? '' : String(p.declaredMinor)}
                  className="mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm"
                >
                  <option value="" disabled>
                    選んでください
                  </option>
                  <option value="false">18歳以上</option>
                  <option value="true">18歳未満</option>
                </select>
              </label>
              <Button type="submit" variant="secondary" loading={busy('age')}>
                訂正する
              </Button>
            </Form>
            <Answer answer={answer} form="age" />
          </Section>
        ) : null}

        {d.signals && d.signals.length > 0 ? (
          <Section id="signals" title="不正検知のシグナル（新しい10件）">
            <ul className="mt-2 flex flex-col gap-2 text-sm">
              {d.signals.map((s) => (
                <li key={s.id}>
                  <span className="font-bold">{s.text}</span>（{s.statusLabel}・{formatStaffDateTime(s.lastSeen)}）
                  {s.others.length > 0 ? (
                    <span className="block text-xs">
                      ほかのアカウント：
                      {s.others.map((o, i) => (
                        <span key={o.id}>
                          {i > 0 ? '、' : ''}
                          <MemberTag tag={o.tag} memberId={o.id} />
                        </span>
                      ))}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs">
              <Link to={`/admin/signals?status=`} className="underline">
                不正検知の一覧で判断する
              </Link>
            </p>
          </Section>
        ) : null}

        <Section id="wallet" title={`コイン残高 ${n(d.wallet.paid + d.wallet.free)}枚`}>
          <p className="mt-1 text-sm">
            有償 <span className="font-bold">{n(d.wallet.paid)}</span>枚・無償{' '}
            <span className="font-bold">{n(d.wallet.free)}</span>枚
            {d.wallet.expiringSoon.amount > 0 ? (
              <span className="ml-2 text-xs text-amber-900">
                30日以内に期限切れ {n(d.wallet.expiringSoon.amount)}枚
              </span>
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

        {d.can.grant && !p.deleted ? (
          <Section id="adjust" title="コインの調整">
            <p className="mt-1 text-xs text-muted">
              台帳に「調整」として記録され、理由は会員のコイン履歴に表示されます。
              {n(d.threshold)}枚を超える調整は、別の管理者の承認後に反映されます。
            </p>
            <form
              className="mt-3 grid gap-3 sm:grid-cols-[8rem_10rem_1fr]"
              onSubmit={(event) => {
                event.preventDefault();
                setAsking('adjust');
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
                <Button type="submit" loading={busy('adjust')}>
                  {needsApproval ? '承認を申請する' : '調整する'}
                </Button>
              </div>
            </form>
            <Answer answer={answer} form="adjust" />
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
        ) : null}

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
          <Pager
            first={pageWith('ledger', null)}
            atFirst={!cursorSet('ledger')}
            next={d.ledger.next ? pageWith('ledger', d.ledger.next) : null}
          />
        </Section>

        <Section id="draws" title="ガチャ履歴">
          <Table head={['日時', 'パック', '回数', 'コイン', '結果']}>
            {d.draws.items.map((r) => (
              <tr key={r.id}>
                <td className={`${cell} whitespace-nowrap`}>{formatStaffDateTime(r.createdAt)}</td>
                <td className={cell}>{r.gachaTitle}</td>
                <td className={cell}>{n(r.count)}</td>
                <td className={cell}>{n(r.cost)}</td>
                <td className={cell}>
                  {r.status === 'completed' ? '完了' : `不成立${r.errorCode ? `（${r.errorCode}）` : ''}`}
                  {r.lastOne ? '・ラストワン' : ''}
                  {r.kiriban.length ? `・キリ番（${r.kiriban.map((k) => `${n(k)}口目`).join('・')}）` : ''}
                </td>
              </tr>
            ))}
          </Table>
          {d.draws.items.length === 0 ? <p className="mt-2 text-sm text-muted">ガチャの記録はありません。</p> : null}
          <Pager
            first={pageWith('draws', null)}
            atFirst={!cursorSet('draws')}
            next={d.draws.next ? pageWith('draws', d.draws.next) : null}
          />
        </Section>

        <Section id="prizes" title="獲得商品">
          <nav aria-label="獲得商品の状態" className="mt-2 flex flex-wrap gap-2 text-xs">
            {Object.entries(d.prizes.counts).map(([status, count]) => (
              <Link
                key={status}
                to={pageWith('prizes', status)}
                aria-current={status === d.prizes.status ? 'true' : undefined}
                className={`rounded-full px-3 py-1.5 font-bold ${status === d.prizes.status ? 'bg-ink text-white' : 'bg-slate-100'}`}
              >
                {PRIZE_STATUS_LABELS[status] ?? status} {n(count)}
              </Link>
            ))}
          </nav>
          <Table head={['獲得', 'カード', '賞', '交換価値', '期限']}>
            {d.prizes.items.map((prize) => (
              <tr key={prize.prizeId}>
                <td className={`${cell} whitespace-nowrap`}>{formatStaffDate(prize.createdAt)}</td>
                <td className={cell}>
                  {prize.cardName}
                  <span className="block text-muted">{prize.gachaTitle}</span>
                </td>
                <td className={cell}>{prize.tierLabel}</td>
                <td className={cell}>{n(prize.conversionValue)}</td>
                <td className={cell}>
                  {d.prizes.status === 'pending'
                    ? formatStaffDate(prize.decideBy)
                    : prize.keepUntil
                      ? formatStaffDate(prize.keepUntil)
                      : '—'}
                </td>
              </tr>
            ))}
          </Table>
          {d.prizes.items.length === 0 ? <p className="mt-2 text-sm text-muted">この状態の商品はありません。</p> : null}
          <Pager
            first={pageWith('prizesAfter', null)}
            atFirst={!cursorSet('prizesAfter')}
            next={d.prizes.next ? pageWith('prizesAfter', d.prizes.next) : null}
          />
        </Section>

        <Section id="shipping" title="発送依頼（新しい10件）">
          <Table head={['受付', '状態', '枚数', '依頼']}>
            {d.shipping.map((r) => (
              <tr key={r.id}>
                <td className={`${cell} whitespace-nowrap`}>{formatStaffDateTime(r.requestedAt)}</td>
                <td className={cell}>{r.statusLabel}</td>
                <td className={cell}>{n(r.itemCount)}</td>
                <td className={cell}>
                  {d.can.shipping ? (
                    <Link to={`/admin/shipping/${r.id}`} className="font-mono underline">
                      {r.id.slice(0, 8)}
                    </Link>
                  ) : (
                    <span className="font-mono">{r.id.slice(0, 8)}</span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          {d.shipping.length === 0 ? <p className="mt-2 text-sm text-muted">発送依頼はありません。</p> : null}
          {d.can.shipping && d.shipping.length > 0 ? (
            <Link
              to={`/admin/shipping?memberId=${encodeURIComponent(p.id)}`}
              className="mt-2 inline-block text-xs underline"
            >
              発送デスクでこの会員の依頼をすべて見る
            </Link>
          ) : null}
        </Section>

        <Section id="orders" title="購入履歴">
          <Table head={['日時', '受付番号', 'パック', '金額', '方法', '状態']}>
            {d.orders.items.map((o) => (
              <tr key={o.id}>
                <td className={`${cell} whitespace-nowrap`}>{formatStaffDateTime(o.createdAt)}</td>
                <td className={`${cell} font-mono`}>{o.receiptNo}</td>
                <td className={cell}>{o.packName}</td>
                <td className={cell}>
                  ¥{n(o.amountJpy)}
                  {o.refundedJpy > 0 ? <span className="block text-danger">返金 ¥{n(o.refundedJpy)}</span> : null}
                </td>
                <td className={cell}>{o.methodLabel}</td>
                <td className={cell}>{o.statusLabel}</td>
              </tr>
            ))}
          </Table>
          {d.orders.items.length === 0 ? <p className="mt-2 text-sm text-muted">購入はありません。</p> : null}
          <Pager
            first={pageWith('orders', null)}
            atFirst={!cursorSet('orders')}
            next={d.orders.next ? pageWith('orders', d.orders.next) : null}
          />
        </Section>

        <Section id="sessions" title={`ログイン中のセッション（${n(d.sessions.total)}件）`}>
          <Table head={['開始', '期限', 'IPアドレス', '端末']}>
            {d.sessions.items.map((s) => (
              <tr key={s.id}>
                <td className={`${cell} whitespace-nowrap`}>{formatStaffDateTime(s.createdAt)}</td>
                <td className={`${cell} whitespace-nowrap`}>{formatStaffDateTime(s.expiresAt)}</td>
                <td className={`${cell} font-mono`}>{s.ipAddress ?? '—'}</td>
                <td className={`${cell} max-w-64 break-all`}>{s.userAgent ?? '—'}</td>
              </tr>
            ))}
          </Table>
          {d.sessions.total > d.sessions.items.length ? (
            <p className="mt-1 text-xs text-muted">新しい{d.sessions.items.length}件を表示</p>
          ) : null}
          {d.sessions.items.length === 0 ? (
            <p className="mt-2 text-sm text-muted">ログイン中の端末はありません。</p>
          ) : null}
        </Section>

        <Section id="notes" title="スタッフメモ">
          <p className="mt-1 text-xs text-muted">会員には表示されません。追加のみで、編集・削除はできません。</p>
          {d.can.write ? (
            <Form method="post" className="mt-2 grid gap-2">
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="member-note" className="sr-only">
                メモ
              </label>
              <textarea
                id="member-note"
                name="text"
                rows={3}
                maxLength={2000}
                required
                key={answer?.form === 'note' && answer.ok ? answer.ok + d.notes.items[0]?.id : 'note'}
                className="w-full rounded-lg border border-line p-2 text-sm"
              />
              <div>
                <Button type="submit" variant="secondary" loading={busy('note')}>
                  メモを追加
                </Button>
              </div>
            </Form>
          ) : null}
          <Answer answer={answer} form="note" />
          <ul className="mt-3 flex flex-col gap-3">
            {d.notes.items.map((note) => (
              <li key={note.id} className="rounded-lg bg-slate-50 p-3 text-sm">
                <p className="whitespace-pre-wrap">{note.text}</p>
                <p className="mt-1 text-xs text-muted">
                  {note.authorLabel}・{formatStaffDateTime(note.createdAt)}
                </p>
              </li>
            ))}
          </ul>
          <Pager
            first={pageWith('notes', null)}
            atFirst={!cursorSet('notes')}
            next={d.notes.next ? pageWith('notes', d.notes.next) : null}
          />
        </Section>
      </div>

      {asking === 'adjust' ? (
        <Sheet title="コインを調整しますか？" onClose={() => setAsking(null)} busy={busy('adjust')}>
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value="adjust" />
            <input type="hidden" name="key" value={d.adjustmentKey} />
            <input type="hidden" name="kind" value={adjust.kind} />
            <input type="hidden" name="amount" value={adjust.amount} />
            <input type="hidden" name="reason" value={adjust.reason} />
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
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant={amount < 0 ? 'danger' : 'primary'} loading={busy('adjust')}>
                {needsApproval ? '承認を申請する' : '調整する'}
              </Button>
              <Button variant="secondary" onClick={() => setAsking(null)} disabled={busy('adjust')}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}

      {asking && asking !== 'adjust' ? (
        <Sheet
          title={
            {
              ban: 'この会員を利用停止にしますか？',
              unban: '利用停止を解除しますか？',
              revokeSessions: 'すべての端末からログアウトさせますか？',
              hold: 'コイン購入と発送依頼を停止しますか？',
            }[asking]
          }
          onClose={() => setAsking(null)}
          busy={busy(asking)}
        >
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value={asking} />
            {asking === 'ban' ? (
              <>
                <p className="text-sm">
                  すべての端末からログアウトさせ、ログインできなくします（「利用停止中」と表示されます）。
                </p>
                <label className="text-xs font-bold">
                  理由（必須・スタッフのみ閲覧）
                  <textarea
                    name="reason"
                    rows={3}
                    maxLength={500}
                    required
                    className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
                  />
                </label>
                <label className="text-xs font-bold">
                  期限（この日の終わりまで・空欄は無期限）
                  <input
                    type="date"
                    name="until"
                    className="mt-1 block min-h-11 rounded-lg border border-line px-3 text-sm"
                  />
                </label>
              </>
            ) : asking === 'hold' ? (
              <>
                <p className="text-sm">
                  コインの購入と発送依頼ができなくなります。会員には「アカウントの確認が必要」と表示され、理由は表示されません。ガチャとコイン交換はそのまま使えます。
                </p>
                <label className="text-xs font-bold">
                  理由（必須・スタッフのみ閲覧）
                  <textarea
                    name="reason"
                    rows={3}
                    maxLength={500}
                    required
                    className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
                  />
                </label>
              </>
            ) : asking === 'revokeSessions' ? (
              <p className="text-sm">
                ログイン中の{n(d.sessions.total)}件のセッションを終了します。会員は再ログインすれば使えます。
              </p>
            ) : (
              <p className="text-sm">会員は再びログインできるようになります。</p>
            )}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant={asking === 'unban' ? 'primary' : 'danger'} loading={busy(asking)}>
                {
                  {
                    ban: '利用停止にする',
                    unban: '解除する',
                    revokeSessions: 'ログアウトさせる',
                    hold: '停止する',
                  }[asking]
                }
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

function Pager({ first, next, atFirst }: { first: string; next: string | null; atFirst: boolean }) {
  if (!next && atFirst) return null;
  return (
    <nav aria-label="ページ" className="mt-2 flex gap-4 text-xs">
      {!atFirst ? (
        <Link to={first} className="underline">
          最新に戻る
        </Link>
      ) : null}
      {next ? (
        <Link to={next} className="underline">
          さらに古い記録
        </Link>
      ) : null}
    </nav>
  );
}
