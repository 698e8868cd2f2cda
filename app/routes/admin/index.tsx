// /admin: the admin area's home: the dashboard (decision 028: figures read from rollups, each section
// for staff who hold its permission), who is signed in, what their role may do, and where each task lives.
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { AppLink } from '~/components/AppLink';
import { requireOperator } from '~/controllers/admin.server';
import { EXPORT_KINDS } from '~/controllers/admin-exports.server';
import { loadDashboard } from '~/controllers/admin-dashboard.server';
import { DashboardSection } from '~/components/admin/Dashboard';
import { ADMIN_PERMISSIONS, PERMISSION_LABELS } from '#modules/admin';
import { countOpenSignals } from '#modules/risk';

export const handle = { title: '管理ホーム' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const operator = await requireOperator(shop, request);
  // Labels come with the data: the admin module (and its tables) must stay out of the browser bundle.
  return {
    dashboard: await loadDashboard(shop.services.db, operator, new Date()),
    exports: Object.entries(EXPORT_KINDS)
      .filter(([, list]) => operator.permissions.has(list.permission))
      .map(([name, list]) => ({ href: `/admin/exports/${name}.csv`, label: list.label })),
    label: operator.label,
    // The open fraud signals (a count of the signals table, kept by the risk.signals job).
    counts: (operator.permissions.has('signals:read')
      ? { '/admin/signals': await countOpenSignals(shop.services.db) }
      : {}) as Record<string, number | undefined>,
    permissions: ADMIN_PERMISSIONS.filter((p) => operator.permissions.has(p)).map((p) => ({
      id: p,
      label: PERMISSION_LABELS[p],
    })),
  };
}

const TASKS: { to: string; title: string; text: string; permission: string | string[] }[] = [
  {
    to: '/admin/members',
    title: '会員',
    text: 'メールアドレス・ニックネーム・会員ID・電話番号で会員を探し、残高・台帳・ガチャ・獲得商品・発送・購入・セッション・メモを確認します。コイン調整、利用停止、購入・発送停止もここから行います。',
    permission: 'members:read',
  },
  {
    to: '/admin/approvals',
    title: '承認待ち',
    text: '承認が必要な大きなコイン調整、管理者の変更、大きなプレゼント付きメールを、申請者とは別の管理者が承認・却下します。',
    permission: ['coins:grant', 'staff:write', 'mail:write'],
  },
  {
    to: '/admin/shipping',
    title: '発送デスク',
    text: '発送依頼の一覧（期限超過が先頭）、ピッキングリストと納品書の印刷、送り状CSV、発送済みの登録（1件ずつ・CSV）を行います。',
    permission: 'shipping:read',
  },
  {
    to: '/admin/packs',
    title: 'パック（ガチャ）',
    text: '下書きを段階ごとに作り（基本情報・販売設定・賞・画像）、還元率・期待値・利益と公開前チェックを確かめ、会員の画面でプレビューしてから公開・予約します。販売終了、コピーもここから。',
    permission: 'packs:write',
  },
  {
    to: '/admin/stock',
    title: '在庫',
    text: '賞のカードの入庫と棚卸し。ガチャの公開で引き当てられた数と、使える数を確かめます。',
    permission: 'packs:write',
  },
  {
    to: '/admin/orders',
    title: '注文',
    text: 'コインの購入と決済事業者からの通知。確認中の注文を確かめ、全額返金します。',
    permission: 'orders:read',
  },
  {
    to: '/admin/signals',
    title: '不正検知',
    text: '同じ端末・配送先・電話番号の複数アカウント、24時間のガチャ・購入の多さ、チャージバックを確かめ、問題なし・購入停止・利用停止を判断します。',
    permission: 'signals:read',
  },
  {
    to: '/admin/inquiries',
    title: 'お問い合わせ',
    text: 'お問い合わせフォームからのお問い合わせに回答します（状態・担当者・社内メモ・回答テンプレート）。回答はお客様にメールで届きます。',
    permission: 'inquiries:read',
  },
  {
    to: '/admin/genres',
    title: 'ジャンル',
    text: 'ジャンルのタブ（名前・旧ID・アイコン・表示順・表示/非表示・表示期間）を追加・変更します。',
    permission: 'packs:write',
  },
  {
    to: '/admin/coin-packs',
    title: 'コインパック',
    text: 'コインショップのパック（価格・有償・ボーナス・初回限定・販売中・販売期間）を追加・変更します。',
    permission: 'packs:write',
  },
  {
    to: '/admin/promo-codes',
    title: '特典コード',
    text: '特典コード（1件またはN件の一括発行・CSV・利用数・停止）を管理します。',
    permission: 'promo:write',
  },
  {
    to: '/admin/banners',
    title: 'バナー',
    text: 'トップページのバナー（画像・タイトル・リンク先・表示順・公開/非公開・表示期間）を追加・変更します。',
    permission: 'content:write',
  },
  {
    to: '/admin/farm',
    title: 'ファーム',
    text: 'ファームの一時停止・再開、ルール（水やり・枯れるまでの時間・1日の上限・畑の解放レベル）、種の一覧と、日別の付与コイン・遊んだ会員・連続日数を確かめます。',
    permission: 'farm:write',
  },
  {
    to: '/admin/reports/unused-paid',
    title: '未使用残高（資金決済法）',
    text: '基準日の未使用の有償コイン残高と、1,000万円の基準額との比較。',
    permission: 'orders:read',
  },
  {
    to: '/admin/audit',
    title: '監査ログ',
    text: '管理画面とコマンドラインで行われた操作の記録を検索します。',
    permission: 'audit:read',
  },
  {
    to: '/admin/staff',
    title: 'スタッフ',
    text: 'スタッフの招待、権限の変更、解除を行います。',
    permission: 'staff:write',
  },
  {
    to: '/admin/maintenance',
    title: 'メンテナンス',
    text: 'メンテナンスの開始・終了。会員のページにお知らせを出し、ガチャ・購入・発送のお申し込みなどを止めます。',
    permission: 'shop:write',
  },
  {
    to: '/admin/closure',
    title: '閉店と払戻し',
    text: '閉店の告知（販売停止・公告）、会員への通知、未使用の有償コインの払戻しの記録と会計用の報告CSV。',
    permission: ['shop:write', 'orders:refund'],
  },
];

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const held = new Set<string>(loaderData.permissions.map((p) => p.id));
  const tasks = TASKS.filter((t) => [t.permission].flat().some((p) => held.has(p)));
  return (
    <div className="max-w-4xl">
      <h1 className="text-2xl font-black">管理ホーム</h1>
      <p className="mt-1 text-sm text-muted">{loaderData.label} としてログインしています。</p>
      <DashboardSection dashboard={loaderData.dashboard} />
      <h2 className="mt-8 text-base font-bold">管理ページ</h2>
      <ul className="mt-2 grid gap-4 sm:grid-cols-2">
        {tasks.map((task) => (
          <li key={task.to}>
            <AppLink
              to={task.to}
              className="block h-full rounded-2xl border border-line bg-white p-5 hover:border-ink focus-visible:border-ink"
            >
              <span className="text-lg font-bold">
                {task.title}
                {loaderData.counts[task.to] ? (
                  <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
                    未対応 {loaderData.counts[task.to]!.toLocaleString('ja-JP')}件
                  </span>
                ) : null}
              </span>
              <span className="mt-1 block text-sm text-muted">{task.text}</span>
            </AppLink>
          </li>
        ))}
      </ul>
      {tasks.length === 0 ? (
        <p className="mt-6 rounded-xl bg-white p-4 text-sm">
          まだ開ける管理ページがありません。管理者に必要な権限を依頼してください。
        </p>
      ) : null}
      {loaderData.exports.length > 0 ? (
        <section className="mt-8" aria-labelledby="exports">
          <h2 id="exports" className="text-base font-bold">
            CSVの書き出し
          </h2>
          <p className="mt-1 text-sm text-muted">
            すべての行を書き出します（件数が多くても順に送られます）。書き出しは監査ログに記録されます。
          </p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {loaderData.exports.map((e) => (
              <li key={e.href}>
                <a
                  href={e.href}
                  download
                  className="inline-flex min-h-11 items-center rounded-full border border-line bg-white px-4 text-sm font-bold hover:border-ink"
                >
                  {e.label}のCSV
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="mt-8" aria-labelledby="my-permissions">
        <h2 id="my-permissions" className="text-base font-bold">
          あなたの権限
        </h2>
        <ul className="mt-2 list-disc pl-5 text-sm leading-relaxed">
          {loaderData.permissions.map((p) => (
            <li key={p.id}>
              {p.label} <code className="text-xs text-muted">{p.id}</code>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
