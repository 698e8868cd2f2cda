// /mypage: the member's card, coins (balance, what expires soon), the prize box (?tab=prizes, with
// filters 未選択・保管中・交換済み, by tier name and in three orders: decision 057), the coin history by action (?tab=coins), the purchase history with
// receipts (?tab=purchases), and the menu. An open tab starts at the top: the profile collapses.
// Visitors are asked to sign in (mypage has no guard).
import { Form, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { LoginBonusCard } from '~/components/LoginBonusCard';
import { loginBonusCardOf } from '~/controllers/login-bonus.server';
import { SelfLimitNotice } from '~/components/SelfLimitNotice';
import { selfLimitSummaryOf } from '~/controllers/limits.server';
import { PrizeChoices, PRIZE_STATUS_LABEL } from '~/components/gacha/PrizeList';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDate, formatMemberDateTime } from '#modules/kernel/dates';
import { prizeChoiceAction, prizeRulesOf, type PrizeActionData } from '~/controllers/prize-actions.server';
import { PrizeBoxTools, arrangePrizeBox, prizeBoxViewOf } from '~/components/gacha/PrizeBoxTools';
import { getBalance } from '#modules/wallet';
import { countPrizesByStatus, listPrizes, prizeBoxPositionSchema, type PrizeStatus } from '#modules/draw';
import { loadCoinHistory } from '~/controllers/coin-history.server';
import { memberCode } from '#modules/identity';
import { getExp } from '#modules/progression';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { ButtonLink, Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { ChevronRightIcon, UserIcon } from '~/components/icons';
import { useRootData } from '~/lib/root-data';
import { LEGAL_LINKS } from '~/components/SiteFooter';
import { PurchaseHistoryList } from '~/components/shop/PurchaseHistory';
import { loadPurchaseHistory } from '~/controllers/shop.server';
import { accountSummaryOf, type AccountSummary } from '#modules/identity/server';
import { SOCIAL_PROVIDER_NAMES, isSocialProviderId } from '#modules/identity/browser';

export const handle = { title: 'マイページ' };

const MENU = [
  { to: '/mypage/draws', label: '当選履歴（抽選の記録と証明）' },
  { to: '/mypage?tab=purchases', label: '購入履歴' },
  { to: '/myinbox/idvs', label: 'お知らせ・メールボックス' },
  { to: '/mylevel', label: 'マイレベル' },
  { to: '/myrank', label: 'マイランク' },
  { to: '/app/farm', label: 'ファーム（毎日遊べるミニゲーム）' },
  { to: '/app/friends/add', label: 'フレンド（ファームで水やりし合う）' },
  { to: '/mypage/invitation', label: '友達招待' },
  { to: '/mypage/tokutencode', label: '特典コード' },
  { to: '/mypage/shipping', label: '発送状況' },
  { to: '/mypage/addresses', label: '住所録（お届け先）' },
  { to: '/mypage/settings/profile', label: 'プロフィール（ニックネーム・生年月日）' },
  { to: '/mypage/settings/email', label: 'メールアドレスの変更' },
  { to: '/mypage/settings/password', label: 'パスワード' },
  { to: '/mypage/settings/phonenumber', label: '電話番号' },
  { to: '/mypage/settings/unlink', label: '連携アカウント' },
  { to: '/mypage/settings/security', label: '二段階認証' },
  { to: '/mypage/settings/limits', label: '利用上限・自己除外' },
  { to: '/guide', label: 'よくある質問・ご利用ガイド' },
  { to: '/contact', label: 'お問い合わせ' },
  ...LEGAL_LINKS.filter((l) => l.to === '/terms' || l.to === '/tokushoho'),
  { to: '/mypage/settings/delete', label: '退会' },
];

const TABS = [
  { id: 'prizes', label: '獲得商品' },
  { id: 'coins', label: 'コイン履歴' },
  { id: 'purchases', label: '購入履歴' },
  { id: 'menu', label: 'メニュー' },
] as const;

/** The prize box's filters; 発送手続き中 appears once a card is in it. */
const PRIZE_FILTERS: { id: PrizeStatus; label: string }[] = [
  { id: 'pending', label: '未選択' },
  { id: 'kept', label: '保管中' },
  { id: 'converted', label: '交換済み' },
  { id: 'shipping', label: '発送手続き中' },
];
/** Undecided cards are listed 100 at a time, so one bulk conversion covers a whole 100連. */
const PRIZE_PAGE = { pending: 100, kept: 50, converted: 50, shipping: 50 } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  if (!shop.member) return { signedIn: false as const };
  const url = new URL(request.url);
  const tab = TABS.find((t) => t.id === url.searchParams.get('tab'))?.id ?? 'menu';
  // Paging positions come from links but are checked like any input: a bad one starts at the top.
  const beforeText = url.searchParams.get('before') ?? '';
  const before = /^\d{1,15}$/.test(beforeText) ? Number(beforeText) : undefined;
  const prizeTime = url.searchParams.get('pt') ?? '';
  const prizeId = url.searchParams.get('pi') ?? '';
  // A real instant (not 2024-02-31) and a real UUID (the API's cursor rule): the database would refuse either with a 500.
  const position = prizeBoxPositionSchema.safeParse({ createdAt: prizeTime, id: prizeId });
  const prizesBefore = position.success ? position.data : undefined;
  const { db } = shop.services;
  const prizeCounts = tab === 'prizes' ? await countPrizesByStatus(db, shop.member.id) : null;
  const asked = PRIZE_FILTERS.find((f) => f.id === url.searchParams.get('filter'))?.id;
  // Without a choice: the undecided cards, or the kept ones when nothing is undecided.
  const filter: PrizeStatus =
    asked ?? (prizeCounts && prizeCounts.pending === 0 && prizeCounts.kept > 0 ? 'kept' : 'pending');
  // The box's tier filter and order (decision 057): over the newest page of the status, not paged further.
  const view = prizeBoxViewOf(url.searchParams);
  const arranged = view.sort !== 'new' || view.tier !== null;
  const [balance, prizes, history, exp, purchases, account] = await Promise.all([
    getBalance(db, shop.member.id),
    tab === 'prizes'
      ? listPrizes(db, shop.member.id, {
          status: [filter],
          limit: arranged ? 100 : PRIZE_PAGE[filter],
          before: arranged ? undefined : prizesBefore,
        })
      : Promise.resolve(null),
    tab === 'coins' ? loadCoinHistory(db, shop.member.id, { limit: 30, before }) : Promise.resolve(null),
    getExp(db, shop.member.id),
    // The purchase history pages by creation time (an ISO timestamp; anything else is the first page).
    tab === 'purchases'
      ? loadPurchaseHistory(shop, shop.member.id, { before: beforeText, limit: 20 })
      : Promise.resolve(null),
    tab === 'menu' ? accountSummaryOf(db, shop.member.id) : Promise.resolve(null),
  ]);
  // Today's login bonus on the menu (decision 033); the card hides itself once claimed on an earlier visit.
  const loginBonus = tab === 'menu' ? await loginBonusCardOf(shop) : null;
  // The member's own limits (decision 035): the 80 % reminder and an exclusion, on the menu.
  const selfLimits = tab === 'menu' ? await selfLimitSummaryOf(shop) : null;
  return {
    signedIn: true as const,
    tab,
    balance,
    ...arrangePrizeBox(prizes?.items ?? [], view),
    prizeView: view,
    prizesNext: arranged ? null : (prizes?.next ?? null),
    prizesMore: arranged && Boolean(prizes?.next),
    prizesScanned: prizes?.items.length ?? 0,
    prizesPaged: !arranged && Boolean(prizesBefore),
    prizeFilter: filter,
    prizeCounts,
    memberCode: memberCode(shop.member.id),
    prizeRules: prizeRulesOf(shop.services.config),
    history,
    purchases,
    exp,
    account,
    loginBonus,
    selfLimits,
    renderedAt: new Date().toISOString(),
    lifetimes: { paid: shop.services.config.PAID_COIN_EXPIRY_DAYS, free: shop.services.config.FREE_COIN_EXPIRY_DAYS },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return prizeChoiceAction(context.get(shopRequestContext), request);
}

export default function MyPage({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const member = root?.member;
  if (!member) {
    return (
      <>
        <PageHeading title="マイページ" />
        <EmptyState
          title="ログインしてください"
          action={
            <div className="flex gap-2">
              <ButtonLink to="/auth/sign_in?redirect=%2Fmypage">ログイン</ButtonLink>
              <ButtonLink to="/auth/sign_up" variant="secondary">
                新規登録
              </ButtonLink>
            </div>
          }
        >
          ログインすると、獲得したカードやコインの履歴を確認できます。
        </EmptyState>
      </>
    );
  }
  const signingOut = navigation.state !== 'idle' && navigation.formAction === '/auth/sign_out';
  const tabOpen = loaderData.signedIn && loaderData.tab !== 'menu';
  const prizeAction = actionData as PrizeActionData | undefined;
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="sr-only">マイページ</h1>
      {tabOpen ? (
        <section
          aria-label="会員情報"
          className="flex items-center gap-2 rounded-2xl bg-white px-4 py-2.5 text-sm shadow-sm"
          data-testid="profile-compact"
        >
          <UserIcon className="size-5 shrink-0 text-primary-ink" />
          <p className="min-w-0 truncate font-bold" data-testid="member-name">
            {member.name}
          </p>
          <p className="ml-auto shrink-0 font-mono text-xs text-muted">
            ID {loaderData.signedIn ? loaderData.memberCode : ''}
          </p>
        </section>
      ) : (
        <section
          aria-label="会員情報"
          className="flex items-center gap-3 rounded-2xl bg-gradient-to-br from-primary to-rose-400 p-5 text-white shadow"
        >
          <div className="flex size-14 items-center justify-center rounded-full bg-white/25">
            <UserIcon className="size-8" />
          </div>
          <div className="min-w-0">
            <p className="truncate text-lg font-black" data-testid="member-name">
              {member.name}
            </p>
            <p className="text-xs opacity-90">
              会員ID：
              <span className="font-mono tracking-wider" data-testid="member-code">
                {loaderData.signedIn ? loaderData.memberCode : ''}
              </span>
            </p>
          </div>
        </section>
      )}
      {loaderData.signedIn && !tabOpen && (
        <WalletCard balance={loaderData.balance} exp={loaderData.exp} lifetimes={loaderData.lifetimes} />
      )}
      {loaderData.signedIn && !tabOpen && (
        <SelfLimitNotice summary={loaderData.selfLimits} show={['purchase', 'draw']} />
      )}
      {loaderData.signedIn && !tabOpen && loaderData.loginBonus && (
        <LoginBonusCard bonus={loaderData.loginBonus} hideWhenClaimed />
      )}
      {loaderData.signedIn && (
        <nav aria-label="マイページのタブ" className="grid grid-cols-4 gap-1 rounded-full bg-white p-1 shadow-sm">
          {TABS.map((t) => (
            <AppLink
              key={t.id}
              to={`/mypage?tab=${t.id}`}
              replace
              preventScrollReset
              aria-current={loaderData.tab === t.id ? 'page' : undefined}
              className={`flex min-h-11 items-center justify-center rounded-full px-1 text-center text-xs font-bold leading-tight sm:text-sm ${loaderData.tab === t.id ? 'bg-primary-ink text-white' : 'text-muted hover:bg-canvas'}`}
            >
              {t.label}
            </AppLink>
          ))}
        </nav>
      )}
      {loaderData.signedIn && loaderData.tab === 'prizes' && loaderData.prizeCounts && (
        <section id="prizes" aria-labelledby="prizes-title" className="flex flex-col gap-3">
          <h2 id="prizes-title" className="sr-only">
            獲得商品
          </h2>
          <nav aria-label="獲得商品の絞り込み" className="flex gap-2 overflow-x-auto">
            {PRIZE_FILTERS.filter((f) => f.id !== 'shipping' || loaderData.prizeCounts!.shipping > 0).map((f) => {
              const active = loaderData.prizeFilter === f.id;
              return (
                <AppLink
                  key={f.id}
                  to={`/mypage?tab=prizes&filter=${f.id}${loaderData.prizeView.sort === 'new' ? '' : `&sort=${loaderData.prizeView.sort}`}`}
                  replace
                  preventScrollReset
                  aria-current={active ? 'page' : undefined}
                  data-testid={`prize-filter-${f.id}`}
                  className={`flex min-h-10 shrink-0 items-center gap-1 rounded-full border px-3.5 text-sm font-bold ${active ? 'border-primary-ink bg-primary-ink text-white' : 'border-line bg-white text-ink hover:bg-canvas'}`}
                >
                  {f.label}
                  <span className={`rounded-full px-1.5 text-xs ${active ? 'bg-white/25' : 'bg-canvas'}`}>
                    {formatCoins(loaderData.prizeCounts![f.id])}
                  </span>
                </AppLink>
              );
            })}
          </nav>
          {loaderData.prizeFilter === 'pending' && loaderData.prizes.length > 0 && (
            <p className="text-xs text-muted">
              未選択のカードは期限を過ぎると自動でコインに交換されます。カードをタップすると交換・保管を選べます。
              {loaderData.prizesNext && (
                <b className="block text-ink" data-testid="bulk-scope">
                  まとめて交換・保管は、表示中の{loaderData.prizes.length}枚が対象です。
                </b>
              )}
            </p>
          )}
          {loaderData.prizeFilter === 'kept' && loaderData.prizes.length > 0 && (
            <p className="text-xs text-muted">
              保管中のカードは保管期限まで自動交換されません。コインに交換するときはカードをタップしてください（1枚ずつ確認します）。
            </p>
          )}
          {(loaderData.prizes.length > 0 || loaderData.prizeView.tier) && (
            <PrizeBoxTools
              filter={loaderData.prizeFilter}
              view={loaderData.prizeView}
              tiers={loaderData.prizeTiers}
              scanned={loaderData.prizesScanned}
              more={loaderData.prizesMore}
            />
          )}
          {(loaderData.prizeCounts.pending > 0 || loaderData.prizeCounts.kept > 0) && (
            <div className="flex gap-2">
              <ButtonLink to="/mypage/shipping/new" variant="secondary" className="flex-1">
                発送を申し込む
              </ButtonLink>
              <ButtonLink to="/mypage/shipping" variant="plain">
                発送状況
              </ButtonLink>
            </div>
          )}
          <PrizeChoices
            prizes={loaderData.prizes}
            renderedAt={loaderData.renderedAt}
            rules={loaderData.prizeRules}
            actionData={prizeAction}
            layout="box"
            showBar={loaderData.prizeFilter === 'pending' && loaderData.prizes.length > 0}
            barClassName="bottom-[calc(3.5rem+env(safe-area-inset-bottom))] md:bottom-0"
            empty={
              <EmptyState
                title={`${PRIZE_STATUS_LABEL[loaderData.prizeFilter]}のカードはありません`}
                action={
                  <ButtonLink to="/" variant="secondary">
                    オリパを探す
                  </ButtonLink>
                }
              >
                {loaderData.prizeFilter === 'pending'
                  ? 'オリパで当たったカードはここに届き、コイン交換または発送用の保管を選べます。'
                  : '該当するカードがここに表示されます。'}
              </EmptyState>
            }
          />
          {loaderData.prizesNext && (
            <ButtonLink
              to={`/mypage?tab=prizes&filter=${loaderData.prizeFilter}&pt=${encodeURIComponent(loaderData.prizesNext.createdAt)}&pi=${loaderData.prizesNext.id}`}
              variant="secondary"
              fullWidth
              preventScrollReset
            >
              もっと見る
            </ButtonLink>
          )}
          {loaderData.prizesPaged && (
            <ButtonLink to={`/mypage?tab=prizes&filter=${loaderData.prizeFilter}`} variant="plain" fullWidth>
              最新に戻る
            </ButtonLink>
          )}
        </section>
      )}
      {loaderData.signedIn && loaderData.tab === 'coins' && loaderData.history && (
        <section aria-labelledby="coins-title" className="flex flex-col gap-3">
          <h2 id="coins-title" className="text-base font-black">
            コイン履歴
          </h2>
          <p className="rounded-xl bg-white px-4 py-2.5 text-sm shadow-sm" data-testid="coins-balance-line">
            所持 <b>{formatCoins(loaderData.balance.total)}</b>（有償 {formatCoins(loaderData.balance.paid)}・無償{' '}
            {formatCoins(loaderData.balance.free)}）
            {loaderData.balance.expiringSoon.amount > 0 && loaderData.balance.expiringSoon.firstExpiresAt && (
              <span className="mt-1 block text-xs text-amber-900">
                30日以内に期限切れ：{formatCoins(loaderData.balance.expiringSoon.amount)}（最短{' '}
                {formatMemberDate(loaderData.balance.expiringSoon.firstExpiresAt)}）
              </span>
            )}
          </p>
          {loaderData.history.items.length === 0 ? (
            <EmptyState title="コインの履歴はまだありません">
              コインの購入・利用・交換・有効期限切れがここに記録されます。
            </EmptyState>
          ) : (
            <ol
              className="divide-y divide-line overflow-hidden rounded-2xl bg-white shadow-sm"
              aria-label="コイン履歴（新しい順）"
            >
              {loaderData.history.items.map((entry) => (
                <CoinHistoryRowView key={entry.id} entry={entry} />
              ))}
            </ol>
          )}
          {loaderData.history.nextBefore && (
            <ButtonLink
              to={`/mypage?tab=coins&before=${loaderData.history.nextBefore}`}
              variant="secondary"
              fullWidth
              preventScrollReset
            >
              もっと見る
            </ButtonLink>
          )}
          {params.get('before') && (
            <ButtonLink to="/mypage?tab=coins" variant="plain" fullWidth>
              最新の履歴に戻る
            </ButtonLink>
          )}
        </section>
      )}
      {loaderData.signedIn && loaderData.tab === 'purchases' && loaderData.purchases && (
        <section aria-labelledby="purchases-title" className="flex flex-col gap-3">
          <h2 id="purchases-title" className="text-base font-black">
            購入履歴
          </h2>
          {loaderData.purchases.items.length === 0 ? (
            <EmptyState
              title="購入履歴はまだありません"
              action={
                <ButtonLink to="/shop" variant="secondary">
                  コインショップへ
                </ButtonLink>
              }
            >
              コインを購入すると、ここに履歴と領収書が表示されます。
            </EmptyState>
          ) : (
            <PurchaseHistoryList items={loaderData.purchases.items} sellerName={loaderData.purchases.sellerName} />
          )}
          {loaderData.purchases.nextCursor && (
            <ButtonLink
              to={`/mypage?tab=purchases&before=${encodeURIComponent(loaderData.purchases.nextCursor)}`}
              variant="secondary"
              fullWidth
              preventScrollReset
            >
              もっと見る
            </ButtonLink>
          )}
          {params.get('before') && (
            <ButtonLink to="/mypage?tab=purchases" variant="plain" fullWidth>
              最新の購入履歴に戻る
            </ButtonLink>
          )}
        </section>
      )}
      <nav
        aria-label="マイページメニュー"
        className={`overflow-hidden rounded-2xl bg-white shadow-sm ${loaderData.signedIn && loaderData.tab !== 'menu' ? 'hidden md:block' : ''}`}
      >
        <ul className="divide-y divide-line">
          {MENU.map((item) => (
            <li key={item.to}>
              <AppLink
                to={item.to}
                className="flex min-h-13 items-center justify-between px-4 py-3.5 text-sm font-bold hover:bg-canvas"
              >
                <span>{item.label}</span>
                <span className="flex items-center gap-1">
                  {loaderData.signedIn && loaderData.account ? (
                    <span className="max-w-[11rem] truncate text-xs font-normal text-muted">
                      {accountStatus(item.to, loaderData.account)}
                    </span>
                  ) : null}
                  <ChevronRightIcon className="size-5 text-muted" />
                </span>
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="post" action="/auth/sign_out">
        <Button type="submit" variant="plain" fullWidth loading={signingOut}>
          ログアウト
        </Button>
      </Form>
    </div>
  );
}

/** The account's state beside its menu item: the address, the phone, the second factor, the providers. */
function accountStatus(to: string, account: AccountSummary): string | null {
  if (to === '/mypage/settings/email') return account.email ?? '未登録';
  if (to === '/mypage/settings/phonenumber') return account.phone ?? '未登録';
  if (to === '/mypage/settings/security') return account.twoFactorEnabled ? 'オン' : 'オフ';
  if (to === '/mypage/settings/unlink')
    return account.providers.length
      ? account.providers.map((id) => (isSocialProviderId(id) ? SOCIAL_PROVIDER_NAMES[id] : id)).join('・')
      : 'なし';
  return null;
}

function WalletCard({
  balance,
  exp,
  lifetimes,
}: {
  balance: {
    paid: number;
    free: number;
    total: number;
    expiringSoon: { amount: number; firstExpiresAt: string | null };
  };
  exp: number;
  lifetimes: { paid: number; free: number };
}) {
  return (
    <section aria-labelledby="wallet-title" className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm">
      <div className="flex items-end justify-between">
        <h2 id="wallet-title" className="text-sm font-bold text-muted">
          所持コイン
        </h2>
        <ButtonLink to="/shop" className="!min-h-9 !text-xs">
          コインを購入
        </ButtonLink>
      </div>
      <p className="text-3xl font-black" data-testid="wallet-total">
        {formatCoins(balance.total)}
        <span className="ml-1 text-sm">コイン</span>
      </p>
      <dl className="grid grid-cols-2 gap-2 text-center text-sm">
        <div className="rounded-xl bg-canvas py-2">
          <dt className="text-xs text-muted">有償コイン</dt>
          <dd className="font-black" data-testid="wallet-paid">
            {formatCoins(balance.paid)}
          </dd>
        </div>
        <div className="rounded-xl bg-canvas py-2">
          <dt className="text-xs text-muted">無償コイン</dt>
          <dd className="font-black" data-testid="wallet-free">
            {formatCoins(balance.free)}
          </dd>
        </div>
      </dl>
      {balance.expiringSoon.amount > 0 && balance.expiringSoon.firstExpiresAt && (
        <p className="rounded-xl bg-amber-50 p-2.5 text-xs text-amber-900" data-testid="wallet-expiring">
          30日以内に有効期限を迎えるコイン：<b>{formatCoins(balance.expiringSoon.amount)}</b>（最短{' '}
          {formatMemberDate(balance.expiringSoon.firstExpiresAt)}）。無償コインから先に使われます。
        </p>
      )}
      <p className="text-xs text-muted">
        累計経験値 {formatCoins(exp)} EXP・有償コインの有効期限は購入から{lifetimes.paid}日、無償コインは付与から
        {lifetimes.free}日です。
      </p>
    </section>
  );
}

type HistoryEntry = NonNullable<
  Extract<Route.ComponentProps['loaderData'], { signedIn: true }>['history']
>['items'][number];

/** One action of the coin history; a conversion of several cards opens to list them. */
function CoinHistoryRowView({ entry }: { entry: HistoryEntry }) {
  const amount = (
    <div className="shrink-0 text-right">
      <p className={`font-black ${entry.amount > 0 ? 'text-emerald-800' : 'text-ink'}`}>
        {entry.amount > 0 ? '+' : '−'}
        {formatCoins(Math.abs(entry.amount))}
      </p>
      <p className="text-xs text-muted">残高 {formatCoins(entry.balanceAfter)}</p>
    </div>
  );
  const text = (
    <div className="min-w-0">
      <p className="font-bold">
        {entry.href ? (
          <AppLink to={entry.href} className="underline-offset-2 hover:underline">
            {entry.title}
          </AppLink>
        ) : (
          entry.title
        )}
      </p>
      <p className="text-xs text-muted">
        <time dateTime={entry.createdAt}>{formatMemberDateTime(entry.createdAt)}</time>
        {entry.detail ? `・${entry.detail}` : ''}
      </p>
    </div>
  );
  if (entry.cards.length === 0) {
    return (
      <li className="flex items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="ledger-entry">
        {text}
        {amount}
      </li>
    );
  }
  return (
    <li className="text-sm" data-testid="ledger-entry">
      <details className="group">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 [&::-webkit-details-marker]:hidden">
          {text}
          <span className="flex items-center gap-2">
            {amount}
            <ChevronRightIcon className="size-4 text-muted transition-transform group-open:rotate-90" />
          </span>
        </summary>
        <ul className="mx-4 mb-3 divide-y divide-line rounded-xl bg-canvas px-3 text-xs" aria-label="交換したカード">
          {entry.cards.map((card, i) => (
            <li key={i} className="flex justify-between gap-2 py-1.5">
              <span className="min-w-0 truncate">
                <b>{card.tierLabel}</b> {card.cardName}
              </span>
              <span className="shrink-0">+{formatCoins(card.coins)}</span>
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}
