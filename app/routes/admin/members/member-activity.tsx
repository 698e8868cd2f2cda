// The member page's records of what the member did: fraud signals, draws, prizes by status, shipping
// requests, purchases and sessions, each limited or paged on its own.
import { Link } from 'react-router';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDate, formatStaffDateTime } from '#modules/kernel/dates';
import { Section, SectionPager, Table, cell, n, useSectionPaging, type MemberData } from './member-parts';

const PRIZE_STATUS_LABELS: Record<string, string> = {
  pending: '未選択',
  kept: '保管中',
  converted: 'コイン交換済み',
  shipping: '発送手続き中',
};

/**
 * The newest fraud signals about the member, with the other accounts they tie it to.
 */
export function SignalsSection({ signals }: { signals: NonNullable<MemberData['signals']> }) {
  return (
    <Section id="signals" title="不正検知のシグナル（新しい10件）">
      <ul className="mt-2 flex flex-col gap-2 text-sm">
        {signals.map((s) => (
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
  );
}

/**
 * @example <DrawsSection d={loaderData} />
 */
export function DrawsSection({ d }: { d: MemberData }) {
  return (
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
      <SectionPager name="draws" next={d.draws.next} />
    </Section>
  );
}

/**
 * @example <PrizesSection d={loaderData} />
 */
export function PrizesSection({ d }: { d: MemberData }) {
  const { pageWith } = useSectionPaging();
  return (
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
      <SectionPager name="prizesAfter" next={d.prizes.next} />
    </Section>
  );
}

/**
 * @example <ShippingSection d={loaderData} />
 */
export function ShippingSection({ d }: { d: MemberData }) {
  const p = d.profile;
  return (
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
  );
}

/**
 * @example <OrdersSection d={loaderData} />
 */
export function OrdersSection({ d }: { d: MemberData }) {
  return (
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
      <SectionPager name="orders" next={d.orders.next} />
    </Section>
  );
}

/**
 * @example <SessionsSection d={loaderData} />
 */
export function SessionsSection({ d }: { d: MemberData }) {
  return (
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
      {d.sessions.items.length === 0 ? <p className="mt-2 text-sm text-muted">ログイン中の端末はありません。</p> : null}
    </Section>
  );
}
