// The coin history tab of /mypage (?tab=coins): the balance line and each action, newest first.
import { useSearchParams } from 'react-router';
import { AppLink } from '~/components/AppLink';
import { ButtonLink } from '~/components/Button';
import { EmptyState } from '~/components/PageFrame';
import { ChevronRightIcon } from '~/components/icons';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDate, formatMemberDateTime } from '#modules/kernel/dates';
import type { MyPageData } from '~/routes/mypage/index';

type CoinHistory = NonNullable<MyPageData['history']>;
type HistoryEntry = CoinHistory['items'][number];

export function CoinHistoryTab({ data, history }: { data: MyPageData; history: CoinHistory }) {
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="coins-title" className="flex flex-col gap-3">
      <h2 id="coins-title" className="text-base font-black">
        コイン履歴
      </h2>
      <p className="rounded-xl bg-white px-4 py-2.5 text-sm shadow-sm" data-testid="coins-balance-line">
        所持 <b>{formatCoins(data.balance.total)}</b>（有償 {formatCoins(data.balance.paid)}・無償{' '}
        {formatCoins(data.balance.free)}）
        {data.balance.expiringSoon.amount > 0 && data.balance.expiringSoon.firstExpiresAt && (
          <span className="mt-1 block text-xs text-amber-900">
            30日以内に期限切れ：{formatCoins(data.balance.expiringSoon.amount)}（最短{' '}
            {formatMemberDate(data.balance.expiringSoon.firstExpiresAt)}）
          </span>
        )}
      </p>
      {history.items.length === 0 ? (
        <EmptyState title="コインの履歴はまだありません">
          コインの購入・利用・交換・有効期限切れがここに記録されます。
        </EmptyState>
      ) : (
        <ol
          className="divide-y divide-line overflow-hidden rounded-2xl bg-white shadow-sm"
          aria-label="コイン履歴（新しい順）"
        >
          {history.items.map((entry) => (
            <CoinHistoryRowView key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      {history.nextBefore && (
        <ButtonLink
          to={`/mypage?tab=coins&before=${history.nextBefore}`}
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
  );
}

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
