// A 初回限定 checkout the member left open (decision 058): what it is, until when the shop waits for it,
// and the two ways on — back to the provider's page where the member left off, or cancel it (after a
// question on its own page) so the pack can be chosen again. On the checkout page of a first-purchase pack.
import { ButtonLink } from '~/components/Button';
import { formatYen } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import type { OpenCheckoutView } from '#modules/payments';

/** Links of an open checkout (the routes of app/lib/open-checkout.server.ts). */
export const openCheckoutLinks = (orderId: string, back: string) => ({
  resume: `/shop/orders/${orderId}/resume`,
  cancel: `/shop/orders/${orderId}/cancel?${new URLSearchParams({ back }).toString()}`,
});

export function OpenCheckoutNotice({ open, back }: { open: OpenCheckoutView; back: string }) {
  const links = openCheckoutLinks(open.orderId, back);
  return (
    <section
      aria-labelledby="open-checkout-title"
      className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
      data-testid="open-checkout"
    >
      <h2 id="open-checkout-title" className="text-base font-black">
        お支払いが途中の手続きがあります
      </h2>
      <p className="text-sm leading-relaxed">
        「{open.packName}」（{formatYen(open.amountJpy)}・{open.methodLabel}）のお支払いが終わっていません。
        初回限定パックは1つずつしか手続きできないため、続きをお支払いいただくか、キャンセルしてから選び直してください。
        <span className="block text-xs">
          {formatMemberDateTime(open.expiresAt)}を過ぎると自動でキャンセルされます。
        </span>
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <ButtonLink to={links.resume} reloadDocument fullWidth>
          お支払いを再開する
        </ButtonLink>
        <ButtonLink to={links.cancel} variant="plain" fullWidth>
          キャンセルして選び直す
        </ButtonLink>
      </div>
    </section>
  );
}
