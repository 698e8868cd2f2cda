// The member page's profile: ids, contact, role, age, ban and purchase hold.
import { formatStaffDateTime } from '#modules/kernel/dates';
import { Section, type MemberData } from './member-parts';

/**
 * @example <ProfileSection d={loaderData} />
 */
export function ProfileSection({ d }: { d: MemberData }) {
  const p = d.profile;
  return (
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
        <p className="mt-3 text-xs text-muted">自分自身のアカウントです。停止などの操作は別のスタッフが行います。</p>
      ) : null}
    </Section>
  );
}
