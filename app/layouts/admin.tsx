// The admin area's layout (desktop first, usable on a tablet): a side navigation with the pages the
// operator's permissions open, the operator's name and role, and the page. No member chrome (coins,
// tab bar); noindex like every /admin page. A refused permission (403) is shown inside this frame.
import { isRouteErrorResponse, NavLink, Outlet, useRouteError } from 'react-router';
import type { Route } from './+types/admin';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { useRootData } from '~/lib/root-data';
import { operatorSummary, requireOperator, type AdminForbiddenPayload } from '~/controllers/admin.server';
import type { AdminPermission } from '#modules/admin';

export async function loader({ request, context }: Route.LoaderArgs) {
  return { operator: operatorSummary(await requireOperator(context.get(shopRequestContext), request)) };
}

/** The admin pages, each shown to operators holding its permission or one of them (the page checks it again). */
const ADMIN_NAV: { to: string; label: string; permission?: AdminPermission | AdminPermission[]; end?: boolean }[] = [
  { to: '/admin', label: 'ホーム', end: true },
  { to: '/admin/members', label: '会員', permission: 'members:read' },
  { to: '/admin/approvals', label: '承認待ち', permission: ['coins:grant', 'staff:write', 'mail:write'] },
  { to: '/admin/shipping', label: '発送デスク', permission: 'shipping:read' },
  { to: '/admin/packs', label: 'パック', permission: 'packs:write' },
  { to: '/admin/stock', label: '在庫', permission: 'packs:write' },
  { to: '/admin/orders', label: '注文', permission: 'orders:read' },
  { to: '/admin/signals', label: '不正検知', permission: 'signals:read' },
  { to: '/admin/genres', label: 'ジャンル', permission: 'packs:write' },
  { to: '/admin/coin-packs', label: 'コインパック', permission: 'packs:write' },
  { to: '/admin/promo-codes', label: '特典コード', permission: 'promo:write' },
  { to: '/admin/mail', label: 'メール配信', permission: 'mail:write' },
  { to: '/admin/invitations', label: '友達招待', permission: 'members:read' },
  { to: '/admin/banners', label: 'バナー', permission: 'content:write' },
  { to: '/admin/content', label: 'ページ・お知らせ', permission: 'content:write' },
  { to: '/admin/farm', label: 'ファーム', permission: ['farm:write', 'reports:read'] },
  { to: '/admin/reports/unused-paid', label: '未使用残高', permission: 'orders:read' },
  { to: '/admin/inquiries', label: 'お問い合わせ', permission: 'inquiries:read' },
  { to: '/admin/audit', label: '監査ログ', permission: 'audit:read' },
  { to: '/admin/staff', label: 'スタッフ', permission: 'staff:write' },
  { to: '/admin/maintenance', label: 'メンテナンス', permission: 'shop:write' },
  { to: '/admin/closure', label: '閉店と払戻し', permission: ['shop:write', 'orders:refund'] },
];

const ROLE_LABELS: Record<string, string> = { admin: '管理者', staff: 'スタッフ', cli: 'コマンドライン' };

function AdminFrame({
  operator,
  children,
}: {
  operator?: { label: string; role: string; permissions: string[] };
  children: React.ReactNode;
}) {
  const root = useRootData();
  const nav = ADMIN_NAV.filter(
    (item) =>
      !item.permission || [item.permission].flat().some((permission) => operator?.permissions.includes(permission)),
  );
  return (
    <div className="min-h-dvh bg-slate-50 text-ink lg:flex print:block print:bg-white">
      <aside className="print:hidden border-b border-line bg-white lg:sticky lg:top-0 lg:h-dvh lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0">
        <div className="flex items-center justify-between gap-3 px-4 py-3 lg:block lg:px-5 lg:py-5">
          <p className="text-base font-black">
            {root?.site.name}
            <span className="ml-2 rounded bg-ink px-1.5 py-0.5 text-xs font-bold text-white">管理</span>
          </p>
          {operator ? (
            <p className="truncate text-xs text-muted lg:mt-2" title={operator.label}>
              {operator.label}（{ROLE_LABELS[operator.role] ?? operator.role}）
            </p>
          ) : null}
        </div>
        <nav aria-label="管理メニュー" className="flex gap-1 overflow-x-auto px-2 pb-2 lg:flex-col lg:px-3">
          {nav.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                `whitespace-nowrap rounded-lg px-3 py-2.5 text-sm font-bold ${isActive ? 'bg-ink text-white' : 'text-ink hover:bg-slate-100'}`
              }
            >
              {item.label}
            </NavLink>
          ))}
          <AppLink
            to="/"
            className="whitespace-nowrap rounded-lg px-3 py-2.5 text-sm text-muted hover:bg-slate-100 lg:mt-6"
          >
            ショップへ戻る
          </AppLink>
        </nav>
      </aside>
      <main id="main" className="min-w-0 flex-1 px-4 py-6 lg:px-8 print:p-0">
        {children}
      </main>
    </div>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminFrame operator={loaderData.operator}>
      <Outlet />
    </AdminFrame>
  );
}

/** 403 inside the admin frame; anything else falls through to the site's not-found page. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403 && (error.data as AdminForbiddenPayload)?.forbidden) {
    const payload = error.data as AdminForbiddenPayload;
    return (
      <AdminFrame>
        <section className="max-w-xl rounded-2xl border border-line bg-white p-6">
          <h1 className="text-xl font-black">権限がありません</h1>
          <p className="mt-3 text-sm leading-relaxed">
            このページには「{payload.label}」の権限（<code>{payload.permission}</code>
            ）が必要です。管理者に権限の付与を依頼してください。
          </p>
          <AppLink to="/admin" className="mt-4 inline-block text-sm font-bold text-primary-ink underline">
            管理ホームへ戻る
          </AppLink>
        </section>
      </AdminFrame>
    );
  }
  throw error;
}
