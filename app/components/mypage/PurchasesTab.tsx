// The purchase history tab of /mypage (?tab=purchases), with receipts.
import { useSearchParams } from 'react-router';
import { ButtonLink } from '~/components/Button';
import { EmptyState } from '~/components/PageFrame';
import { PurchaseHistoryList } from '~/components/shop/PurchaseHistory';
import type { MyPageData } from '~/routes/mypage/index';

export function PurchasesTab({ purchases }: { purchases: NonNullable<MyPageData['purchases']> }) {
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="purchases-title" className="flex flex-col gap-3">
      <h2 id="purchases-title" className="text-base font-black">
        購入履歴
      </h2>
      {purchases.items.length === 0 ? (
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
        <PurchaseHistoryList items={purchases.items} sellerName={purchases.sellerName} />
      )}
      {purchases.nextCursor && (
        <ButtonLink
          to={`/mypage?tab=purchases&before=${encodeURIComponent(purchases.nextCursor)}`}
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
  );
}
