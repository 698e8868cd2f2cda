// /mypage: the member's card, coins (balance, what expires soon), the prize box (?tab=prizes, with
// filters 未選択・保管中・交換済み, by tier name and in three orders: decision 057), the coin history by action (?tab=coins), the purchase history with
// receipts (?tab=purchases), and the menu. An open tab starts at the top: the profile collapses.
// Visitors are asked to sign in (mypage has no guard).
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { LoginBonusCard } from '~/components/LoginBonusCard';
import { loginBonusCardOf } from '~/controllers/login-bonus.server';
import { SelfLimitNotice } from '~/components/SelfLimitNotice';
import { selfLimitSummaryOf } from '~/controllers/limits.server';
import { prizeChoiceAction, prizeRulesOf, type PrizeActionData } from '~/controllers/prize-actions.server';
import { arrangePrizeBox, prizeBoxViewOf } from '~/components/gacha/PrizeBoxTools';
import { balanceOf } from '~/controllers/request-reads.server';
import { countPrizesByStatus, listPrizes, prizeBoxPositionSchema, type PrizeStatus } from '#modules/draw';
import { loadCoinHistory } from '~/controllers/coin-history.server';
import { RESTRICTION_CATEGORY_WORDS, RESTRICTION_KIND_LABELS, memberCode } from '#modules/identity';
import { getExp } from '#modules/progression';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { ButtonLink, Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { useRootData } from '~/lib/root-data';
import { loadPurchaseHistory } from '~/controllers/shop.server';
import { accountSummaryOf } from '#modules/identity/server';
import { CoinHistoryTab } from '~/components/mypage/CoinHistoryTab';
import { MemberCard } from '~/components/mypage/MemberCard';
import { MyPageMenu } from '~/components/mypage/MyPageMenu';
import { PrizeBoxTab, PRIZE_FILTERS } from '~/components/mypage/PrizeBoxTab';
import { PurchasesTab } from '~/components/mypage/PurchasesTab';
import { WalletCard } from '~/components/mypage/WalletCard';

export const handle = { title: 'マイページ' };

const TABS = [
  { id: 'prizes', label: '獲得商品' },
  { id: 'coins', label: 'コイン履歴' },
  { id: 'purchases', label: '購入履歴' },
  { id: 'menu', label: 'メニュー' },
] as const;

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
    // The header's read of the same request (one statement, shared with the root loader).
    balanceOf(shop).then((balance) => balance!),
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
  // A hold in force (decision 084), read with the account summary: its kind and category, with the way to the
  // statement and the appeal.
  const restrictions = (account?.restrictions ?? []).map((r) => ({
    id: r.id,
    text: `${RESTRICTION_KIND_LABELS[r.kind]}中です（理由の区分：${RESTRICTION_CATEGORY_WORDS[r.category].label}）`,
  }));
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
    restrictions,
    renderedAt: new Date().toISOString(),
    lifetimes: { paid: shop.services.config.PAID_COIN_EXPIRY_DAYS, free: shop.services.config.FREE_COIN_EXPIRY_DAYS },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return prizeChoiceAction(context.get(shopRequestContext), request);
}

/** The signed-in page's data, for the tabs' components. */
export type MyPageData = Extract<Awaited<ReturnType<typeof loader>>, { signedIn: true }>;

export default function MyPage({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  const navigation = useNavigation();
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
      <MemberCard name={member.name} code={loaderData.signedIn ? loaderData.memberCode : ''} compact={tabOpen} />
      {loaderData.signedIn && !tabOpen && (
        <WalletCard balance={loaderData.balance} exp={loaderData.exp} lifetimes={loaderData.lifetimes} />
      )}
      {loaderData.signedIn &&
        !tabOpen &&
        loaderData.restrictions.map((r) => (
          <p
            key={r.id}
            role="status"
            className="rounded-2xl border-2 border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
            data-testid="mypage-restriction"
          >
            <b className="block">{r.text}</b>
            <AppLink to="/mypage/standing" className="mt-1 inline-block font-bold underline underline-offset-2">
              明細と異議申し立て
            </AppLink>
          </p>
        ))}
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
        <PrizeBoxTab data={loaderData} prizeCounts={loaderData.prizeCounts} prizeAction={prizeAction} />
      )}
      {loaderData.signedIn && loaderData.tab === 'coins' && loaderData.history && (
        <CoinHistoryTab data={loaderData} history={loaderData.history} />
      )}
      {loaderData.signedIn && loaderData.tab === 'purchases' && loaderData.purchases && (
        <PurchasesTab purchases={loaderData.purchases} />
      )}
      <MyPageMenu hidden={tabOpen} account={loaderData.signedIn ? loaderData.account : null} />
      <Form method="post" action="/auth/sign_out">
        <Button type="submit" variant="plain" fullWidth loading={signingOut}>
          ログアウト
        </Button>
      </Form>
    </div>
  );
}
