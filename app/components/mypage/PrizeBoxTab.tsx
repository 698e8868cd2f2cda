// The prize box tab of /mypage (?tab=prizes): filters 未選択・保管中・交換済み, the box's tools and the cards.
import { AppLink } from '~/components/AppLink';
import { ButtonLink } from '~/components/Button';
import { EmptyState } from '~/components/PageFrame';
import { PrizeBoxTools } from '~/components/gacha/PrizeBoxTools';
import { PrizeChoices, PRIZE_STATUS_LABEL } from '~/components/gacha/PrizeList';
import { formatCoins } from '~/lib/numbers';
import type { PrizeActionData } from '~/controllers/prize-actions.server';
import type { PrizeStatus } from '#modules/draw';
import type { MyPageData } from '~/routes/mypage/index';

/** The prize box's filters; 発送手続き中 appears once a card is in it. */
export const PRIZE_FILTERS: { id: PrizeStatus; label: string }[] = [
  { id: 'pending', label: '未選択' },
  { id: 'kept', label: '保管中' },
  { id: 'converted', label: '交換済み' },
  { id: 'shipping', label: '発送手続き中' },
];

export function PrizeBoxTab({
  data,
  prizeCounts,
  prizeAction,
}: {
  data: MyPageData;
  prizeCounts: NonNullable<MyPageData['prizeCounts']>;
  prizeAction: PrizeActionData | undefined;
}) {
  return (
    <section id="prizes" aria-labelledby="prizes-title" className="flex flex-col gap-3">
      <h2 id="prizes-title" className="sr-only">
        獲得商品
      </h2>
      <nav aria-label="獲得商品の絞り込み" className="flex gap-2 overflow-x-auto">
        {PRIZE_FILTERS.filter((f) => f.id !== 'shipping' || prizeCounts.shipping > 0).map((f) => {
          const active = data.prizeFilter === f.id;
          return (
            <AppLink
              key={f.id}
              to={`/mypage?tab=prizes&filter=${f.id}${data.prizeView.sort === 'new' ? '' : `&sort=${data.prizeView.sort}`}`}
              replace
              preventScrollReset
              aria-current={active ? 'page' : undefined}
              data-testid={`prize-filter-${f.id}`}
              className={`flex min-h-10 shrink-0 items-center gap-1 rounded-full border px-3.5 text-sm font-bold ${active ? 'border-primary-ink bg-primary-ink text-white' : 'border-line bg-white text-ink hover:bg-canvas'}`}
            >
              {f.label}
              <span className={`rounded-full px-1.5 text-xs ${active ? 'bg-white/25' : 'bg-canvas'}`}>
                {formatCoins(prizeCounts[f.id])}
              </span>
            </AppLink>
          );
        })}
      </nav>
      {data.prizeFilter === 'pending' && data.prizes.length > 0 && (
        <p className="text-xs text-muted">
          未選択のカードは期限を過ぎると自動でコインに交換されます。カードをタップすると交換・保管を選べます。
          {data.prizesNext && (
            <b className="block text-ink" data-testid="bulk-scope">
              まとめて交換・保管は、表示中の{data.prizes.length}枚が対象です。
            </b>
          )}
        </p>
      )}
      {data.prizeFilter === 'kept' && data.prizes.length > 0 && (
        <p className="text-xs text-muted">
          保管中のカードは保管期限まで自動交換されません。コインに交換するときはカードをタップしてください（1枚ずつ確認します）。
        </p>
      )}
      {(data.prizes.length > 0 || data.prizeView.tier) && (
        <PrizeBoxTools
          filter={data.prizeFilter}
          view={data.prizeView}
          tiers={data.prizeTiers}
          scanned={data.prizesScanned}
          more={data.prizesMore}
        />
      )}
      {(prizeCounts.pending > 0 || prizeCounts.kept > 0) && (
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
        prizes={data.prizes}
        renderedAt={data.renderedAt}
        rules={data.prizeRules}
        actionData={prizeAction}
        layout="box"
        showBar={data.prizeFilter === 'pending' && data.prizes.length > 0}
        barClassName="bottom-[calc(3.5rem+env(safe-area-inset-bottom))] md:bottom-0"
        empty={
          <EmptyState
            title={`${PRIZE_STATUS_LABEL[data.prizeFilter]}のカードはありません`}
            action={
              <ButtonLink to="/" variant="secondary">
                オリパを探す
              </ButtonLink>
            }
          >
            {data.prizeFilter === 'pending'
              ? 'オリパで当たったカードはここに届き、コイン交換または発送用の保管を選べます。'
              : '該当するカードがここに表示されます。'}
          </EmptyState>
        }
      />
      {data.prizesNext && (
        <ButtonLink
          to={`/mypage?tab=prizes&filter=${data.prizeFilter}&pt=${encodeURIComponent(data.prizesNext.createdAt)}&pi=${data.prizesNext.id}`}
          variant="secondary"
          fullWidth
          preventScrollReset
        >
          もっと見る
        </ButtonLink>
      )}
      {data.prizesPaged && (
        <ButtonLink to={`/mypage?tab=prizes&filter=${data.prizeFilter}`} variant="plain" fullWidth>
          最新に戻る
        </ButtonLink>
      )}
    </section>
  );
}
