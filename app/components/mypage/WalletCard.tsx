// The member's coins on /mypage: balance, paid and free, what expires soon, and the lifetimes.
import { ButtonLink } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import { formatMemberDate } from '#modules/kernel/dates';

export function WalletCard({
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
