// The final confirmation before the provider's page (特定商取引法 第12条の6): what is bought, the
// amount, the coins and their expiry, how and when it is paid and delivered, cancellation, the
// seller, and this month's cap. The confirm button posts the order key shown with the page, so a
// double press (or a retried request) opens one checkout. Shared by /shop/checkout and /app/checkout.
import { Form, useNavigation } from 'react-router';
import { Button, ButtonLink } from '~/components/Button';
import { PageHeading } from '~/components/PageFrame';
import { Spinner } from '~/components/Spinner';
import { WarningIcon } from '~/components/icons';
import { formatCoins, formatYen } from '~/lib/numbers';
import { drawOptionLabel } from '~/components/gacha/labels';
import { FIRST_PURCHASE_WARNING } from './ShopPanels';
import { OpenCheckoutNotice } from './OpenCheckoutNotice';
import { CheckoutTerms } from './CheckoutTerms';
import type { OpenCheckoutView } from '#modules/payments';
import type { CheckoutActionData, CheckoutConfirmView, CheckoutLoaderData, ShopRefusal } from './types';

export interface CheckoutConfirmationProps {
  /** The loader's data (checkoutLoader). */
  data: CheckoutLoaderData;
  /** The action's answer after a refused 「購入を確定する」 (checkoutAction). */
  actionData?: CheckoutActionData | null;
  /** Where 「戻る」 and the refusal's link go. */
  backHref?: string;
  backLabel?: string;
  /** The 特定商取引法に基づく表記 page. */
  tokushohoHref?: string;
}

/**
 * @example <CheckoutConfirmation data={loaderData} actionData={actionData} />
 */
export function CheckoutConfirmation({
  data,
  actionData,
  backHref = '/shop',
  backLabel = 'コインショップへ戻る',
  tokushohoHref = '/tokushoho',
}: CheckoutConfirmationProps) {
  if (data.state === 'refused')
    return <ShopRefusalView refusal={data.refusal} backHref={backHref} backLabel={backLabel} />;
  return (
    <ConfirmScreen
      checkout={data.checkout}
      openFirstPurchase={data.openFirstPurchase ?? null}
      selfHref={data.selfHref ?? '/shop'}
      canceledCheckout={data.canceledCheckout ?? false}
      orderKey={actionData?.orderKey ?? data.orderKey}
      error={actionData?.error ?? null}
      backHref={backHref}
      backLabel={backLabel}
      tokushohoHref={tokushohoHref}
    />
  );
}

/** A purchase the shop refused: the reason as the module wrote it, and the way back. */
export function ShopRefusalView({
  refusal,
  backHref = '/shop',
  backLabel = 'コインショップへ戻る',
  title = 'ご購入いただけません',
}: {
  refusal: ShopRefusal;
  backHref?: string;
  backLabel?: string;
  title?: string;
}) {
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4">
      <PageHeading title="ご購入内容の確認" />
      <section
        role="alert"
        aria-labelledby="refusal-title"
        className="flex flex-col items-center gap-3 rounded-2xl bg-white px-6 py-10 text-center shadow-sm"
        data-testid="checkout-refused"
        data-code={refusal.code}
      >
        <div
          aria-hidden="true"
          className="flex size-14 items-center justify-center rounded-full bg-amber-50 text-amber-700"
        >
          <WarningIcon className="size-7" />
        </div>
        <h2 id="refusal-title" className="text-base font-black">
          {title}
        </h2>
        <p className="max-w-sm text-sm leading-relaxed" data-testid="refusal-message">
          {refusal.message}
        </p>
        <ButtonLink to={backHref} variant="secondary">
          {backLabel}
        </ButtonLink>
      </section>
    </div>
  );
}

function ConfirmScreen({
  checkout,
  openFirstPurchase,
  selfHref,
  canceledCheckout,
  orderKey,
  error,
  backHref,
  backLabel,
  tokushohoHref,
}: {
  checkout: CheckoutConfirmView;
  openFirstPurchase: OpenCheckoutView | null;
  selfHref: string;
  canceledCheckout: boolean;
  orderKey: string;
  error: ShopRefusal | null;
  backHref: string;
  backLabel: string;
  tokushohoHref: string;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      <PageHeading
        title="ご購入内容の確認"
        lead={
          openFirstPurchase
            ? '途中のお支払い手続きを済ませると、このパックを購入できます。'
            : '内容をご確認のうえ「購入を確定する」を押してください。お支払い方法の画面に移ります。'
        }
      />
      {canceledCheckout && !openFirstPurchase && (
        <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm font-bold text-emerald-800">
          途中のお支払い手続きをキャンセルしました。このパックをもう一度お選びいただけます。
        </p>
      )}
      {openFirstPurchase && <OpenCheckoutNotice open={openFirstPurchase} back={selfHref} />}
      {error && !openFirstPurchase && (
        <p
          role="alert"
          className="rounded-xl bg-red-50 p-3 text-sm font-bold text-red-700"
          data-testid="checkout-error"
          data-code={error.code}
        >
          {error.message}
        </p>
      )}
      <section
        aria-labelledby="order-summary"
        className="flex flex-col gap-1 rounded-2xl bg-gradient-to-br from-primary to-rose-400 p-5 text-white shadow"
      >
        <h2 id="order-summary" className="text-sm font-bold opacity-90">
          {checkout.packName}
        </h2>
        <p className="text-3xl font-black" data-testid="checkout-amount">
          {formatYen(checkout.priceJpy)}
          <span className="ml-1 text-sm font-bold">（税込）</span>
        </p>
        <p className="text-sm font-bold">付与されるコイン 合計 {formatCoins(checkout.totalCoins)}コイン</p>
      </section>
      <CheckoutTerms checkout={checkout} tokushohoHref={tokushohoHref} />
      {checkout.declaredMinor && (
        <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
          18歳未満の方は、必ず保護者の方の同意を得てからご購入ください。
        </p>
      )}
      {checkout.endsFirstPurchaseOffer && (
        <p
          className="flex gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm font-bold text-amber-900"
          data-testid="first-offer-warning"
        >
          <WarningIcon className="mt-0.5 size-4 shrink-0" />
          {FIRST_PURCHASE_WARNING}
        </p>
      )}
      {checkout.draw && (
        <p className="rounded-xl bg-canvas p-3 text-sm" data-testid="checkout-draw-context">
          {`お支払いが終わると「${checkout.draw.title}」の${drawOptionLabel(checkout.draw.count)}（${formatCoins(checkout.draw.cost)}コイン）にすぐ戻れます。`}
        </p>
      )}
      <Form method="post" className="flex flex-col gap-2" aria-label="購入の確定">
        <input type="hidden" name="pack" value={checkout.packId} />
        {checkout.draw && (
          <>
            <input type="hidden" name="gacha" value={checkout.draw.gachaId} />
            <input type="hidden" name="count" value={checkout.draw.count} />
          </>
        )}
        <input type="hidden" name="orderKey" value={orderKey} />
        {/* What this screen showed: if it changed meanwhile, the member is asked to confirm again. */}
        <input type="hidden" name="price" value={checkout.priceJpy} />
        <input type="hidden" name="coins" value={checkout.totalCoins} />
        <p className="text-center text-xs text-muted">
          {openFirstPurchase
            ? '途中の手続きのお支払いを再開するか、キャンセルすると購入できます。'
            : `「購入を確定する」を押すと、${checkout.methodLabel}のお支払い画面に移ります。`}
        </p>
        {openFirstPurchase ? null : (
          <Button
            type="submit"
            size="lg"
            fullWidth
            disabled={submitting}
            aria-busy={submitting || undefined}
            data-loading={submitting || undefined}
            data-testid="confirm-purchase"
          >
            {submitting ? (
              <>
                <Spinner className="size-5" label={null} />
                <span className="text-base">決済ページへ移動中…</span>
              </>
            ) : (
              <>購入を確定する</>
            )}
          </Button>
        )}
        <p aria-live="polite" className="sr-only">
          {submitting ? '決済ページへ移動しています' : ''}
        </p>
        <ButtonLink to={backHref} variant="plain" fullWidth>
          {backLabel}
        </ButtonLink>
      </Form>
    </div>
  );
}
