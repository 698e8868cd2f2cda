// /shop: the coin shop (members only). The balance, the rank bonus and this month's cap, the age
// question before a first purchase, plan cards and payment methods, and the latest purchases.
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { shopPageAction, shopPageLoader, type ShopActionData } from '~/controllers/shop.server';
import { SHOP_CLOSED_MESSAGE } from '~/components/shop/types';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import {
  WalletSummary,
  StandingCard,
  AgeDeclarationForm,
  CoinPackPicker,
  CarriedDrawNotice,
} from '~/components/shop/ShopPanels';
import { PurchaseHistoryList } from '~/components/shop/PurchaseHistory';
import { SelfLimitNotice } from '~/components/SelfLimitNotice';
import type { PurchaseHistoryPage } from '~/components/shop/types';

export const handle = { title: 'コインショップ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return shopPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return shopPageAction(context.get(shopRequestContext), request);
}

export default function Shop({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ShopActionData | undefined;
  // A refused age answer is shown on the age form itself while it is still asked.
  const asking = loaderData.state === 'open' && !loaderData.standing.declared && !loaderData.standing.hold;
  const ageError = result && !result.ok && asking ? result.message : null;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <PageHeading title="コインショップ" lead="コインを購入してオリパを引こう" />
      {loaderData.state === 'open' && loaderData.draw && (
        <CarriedDrawNotice draw={loaderData.draw} shortfall={loaderData.shortfall} />
      )}
      {result && !ageError && (
        <p
          role={result.ok ? 'status' : 'alert'}
          className={`rounded-xl p-3 text-sm font-bold ${result.ok ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-700'}`}
          data-testid="shop-message"
        >
          {result.message}
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <WalletSummary
          wallet={loaderData.wallet}
          paidCoinDays={loaderData.rules.paidCoinDays}
          freeCoinDays={loaderData.rules.freeCoinDays}
        />
        {loaderData.state === 'open' && <StandingCard standing={loaderData.standing} />}
      </div>
      {loaderData.state === 'open' && <SelfLimitNotice summary={loaderData.selfLimits} show={['purchase']} />}
      {loaderData.state === 'closed' ? (
        <EmptyState title={SHOP_CLOSED_MESSAGE}>コインの販売開始まで今しばらくお待ちください。</EmptyState>
      ) : (
        <>
          {loaderData.standing.hold && (
            <p
              role="alert"
              className="rounded-xl bg-amber-50 p-3 text-sm font-bold text-amber-900"
              data-testid="purchase-hold"
            >
              {`${loaderData.standing.hold === 'operator' ? 'アカウント' : 'お支払い'}の確認が必要なため、現在コインを購入できません。`}
              理由の区分と明細は
              <AppLink to="/mypage/standing" className="underline">
                アカウントの利用制限と明細
              </AppLink>
              でご確認いただけます。
            </p>
          )}
          {asking && <AgeDeclarationForm minorCapJpy={loaderData.rules.minorMonthlyCapJpy} error={ageError} />}
          {loaderData.packs.length === 0 || loaderData.methods.length === 0 ? (
            <EmptyState title={SHOP_CLOSED_MESSAGE}>
              {loaderData.packs.length === 0
                ? '販売中のコインパックはありません。'
                : 'ご利用いただけるお支払い方法がありません。'}
            </EmptyState>
          ) : (
            <CoinPackPicker
              packs={loaderData.packs}
              methods={loaderData.methods}
              remainingJpy={Math.min(
                loaderData.standing.remainingJpy,
                loaderData.selfLimits.purchase?.remaining ?? Number.MAX_SAFE_INTEGER,
              )}
              canPurchase={
                loaderData.standing.declared && !loaderData.standing.hold && !loaderData.selfLimits.excludedLastDay
              }
              blockedReason={
                loaderData.standing.hold
                  ? '現在コインを購入できません。'
                  : loaderData.selfLimits.excludedLastDay
                    ? '自己除外期間中のため、コインを購入できません。'
                    : !loaderData.standing.declared
                      ? '年齢の確認にお答えいただくとご購入いただけます。'
                      : null
              }
              selected={loaderData.selected}
              error={loaderData.selectionError}
              draw={loaderData.draw}
              shortfall={loaderData.shortfall}
            />
          )}
          <p className="text-xs leading-relaxed text-muted">
            価格はすべて税込です。デジタルコンテンツの性質上、購入確定後のキャンセル・返金はできません（法令に定める場合を除く）。
            詳しくは
            <AppLink to="/tokushoho" className="underline">
              特定商取引法に基づく表記
            </AppLink>
            ・
            <AppLink to="/shikin" className="underline">
              資金決済法に基づく表示
            </AppLink>
            ・
            <AppLink to="/terms" className="underline">
              利用規約
            </AppLink>
            をご覧ください。
          </p>
        </>
      )}
      <RecentPurchases history={loaderData.history} />
    </div>
  );
}

function RecentPurchases({ history }: { history: PurchaseHistoryPage }) {
  return (
    <section aria-labelledby="shop-history-title" className="flex flex-col gap-3">
      <div className="flex items-end justify-between">
        <h2 id="shop-history-title" className="text-lg font-black">
          購入履歴
        </h2>
        {history.items.length > 0 && (
          <AppLink to="/mypage?tab=purchases" className="text-sm font-bold text-primary-ink underline">
            すべて見る
          </AppLink>
        )}
      </div>
      {history.items.length === 0 ? (
        <EmptyState title="購入履歴はまだありません">コインを購入すると、ここに履歴と領収書が表示されます。</EmptyState>
      ) : (
        <>
          <PurchaseHistoryList
            items={history.items}
            sellerName={history.sellerName}
            label="最近の購入履歴（新しい順）"
            back="/shop"
          />
          {history.nextCursor && (
            <ButtonLink to="/mypage?tab=purchases" variant="secondary" fullWidth>
              購入履歴をもっと見る
            </ButtonLink>
          )}
        </>
      )}
    </section>
  );
}
