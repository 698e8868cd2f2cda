// The order's terms on the final confirmation (特定商取引法 第12条の6): what is bought, the amount, the
// coins and their expiry, how and when it is paid and delivered, cancellation, the seller and the caps.
import type { ReactNode } from 'react';
import { AppLink } from '~/components/AppLink';
import { formatCoins, formatYen } from '~/lib/numbers';
import type { CheckoutConfirmView } from './types';

function Row({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-1 gap-1 px-4 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-xs font-bold text-muted sm:text-sm">{term}</dt>
      <dd className="text-sm leading-relaxed" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function CheckoutTerms({ checkout, tokushohoHref }: { checkout: CheckoutConfirmView; tokushohoHref: string }) {
  const free = checkout.bonusCoins + checkout.rankBonusCoins;
  return (
    <section aria-labelledby="terms-title" className="overflow-hidden rounded-2xl bg-white shadow-sm">
      <h2 id="terms-title" className="border-b border-line px-4 py-3 text-base font-black">
        ご注文内容
      </h2>
      <dl className="divide-y divide-line">
        <Row term="商品名" testId="checkout-pack">
          {checkout.packName}（デジタルコイン）
        </Row>
        <Row term="支払金額">
          <b className="text-base">{formatYen(checkout.priceJpy)}</b>（税込）
          <span className="block text-xs text-muted">送料・手数料はかかりません。</span>
        </Row>
        <Row term="付与されるコイン" testId="checkout-coins">
          <ul className="flex flex-col gap-0.5">
            <li>
              有償コイン <b>{formatCoins(checkout.paidCoins)}</b>コイン
            </li>
            <li>
              無償ボーナス <b>{formatCoins(checkout.bonusCoins)}</b>コイン
            </li>
            <li>
              ランクボーナス <b>{formatCoins(checkout.rankBonusCoins)}</b>コイン
              <span className="text-xs text-muted">
                （{checkout.rankName}会員
                {checkout.rankBonusPercent > 0 ? `：購入コインの${checkout.rankBonusPercent}%` : ''}）
              </span>
            </li>
            <li className="mt-1 border-t border-line pt-1 font-bold">
              合計 {formatCoins(checkout.totalCoins)}コイン{free > 0 ? `（うち無償${formatCoins(free)}コイン）` : ''}
            </li>
          </ul>
        </Row>
        <Row term="有効期限" testId="checkout-expiry">
          有償コイン：購入から{checkout.paidCoinDays}日<br />
          無償コイン：付与から{checkout.freeCoinDays}日
          <span className="block text-xs text-muted">
            ご利用時は有効期限の近いコインから、無償コインを先に使います。期限を過ぎたコインは失効します。
          </span>
        </Row>
        <Row term="支払方法" testId="checkout-method">
          {checkout.methodLabel}
          <span className="block text-xs text-muted">{checkout.methodNote}</span>
        </Row>
        <Row term="支払時期">{checkout.paymentTiming}</Row>
        <Row term="引渡時期">決済完了後ただちに付与</Row>
        <Row term="キャンセル・返品">
          デジタルコンテンツの性質上、購入確定後のキャンセル・返金はできません（法令に定める場合を除く）。
        </Row>
        <Row term="申込みの撤回">「購入を確定する」を押す前であればいつでも中止できます。</Row>
        <Row term="販売事業者">
          {checkout.sellerName}
          <AppLink to={tokushohoHref} className="ml-2 text-xs font-bold text-primary-ink underline">
            特定商取引法に基づく表記
          </AppLink>
        </Row>
        <Row term="今月のご購入上限" testId="checkout-cap">
          {checkout.declaredMinor ? '18歳未満の方の上限 ' : ''}
          {formatYen(checkout.capJpy)}（今月の残り {formatYen(checkout.remainingJpy)}）
          <span className="block text-xs text-muted">
            このご注文の後の残り {formatYen(Math.max(0, checkout.remainingJpy - checkout.priceJpy))}
          </span>
        </Row>
        {checkout.selfLimit && (
          <Row term="ご自身で設定した購入上限" testId="checkout-self-limit">
            {formatYen(checkout.selfLimit.limitJpy)}（今月の残り{' '}
            {formatYen(Math.max(0, checkout.selfLimit.limitJpy - checkout.selfLimit.usedJpy))}）
            <span className="block text-xs text-muted">
              このご注文の後の残り{' '}
              {formatYen(Math.max(0, checkout.selfLimit.limitJpy - checkout.selfLimit.usedJpy - checkout.priceJpy))}
            </span>
          </Row>
        )}
      </dl>
    </section>
  );
}
