// Today's login bonus: a small card with one claim button (posting to /myinbox/bonus/logs), or today's
// receipt once claimed. The streak table's seven (or so) days show where the member stands.
import { useFetcher } from 'react-router';
import { Button, useOneSubmission } from './Button';
import { AppLink } from './AppLink';
import { formatCoins } from '~/lib/numbers';

/** Where the claim posts: the history page's action (app/lib/login-bonus.server.ts). */
export const LOGIN_BONUS_ACTION_PATH = '/myinbox/bonus/logs';
const ACTION_PATH = LOGIN_BONUS_ACTION_PATH;

/** What the card shows (staff and a switched-off bonus get no card). */
export interface LoginBonusCardData {
  claimed: boolean;
  coins: number;
  streakDay: number;
  /** The day of the table the streak stands on (1..table length). */
  tableDay: number;
  streakCoins: number[];
}

/** The claim's answer: the coins received, or a refusal's Japanese words. */
export type LoginBonusActionData =
  { ok: true; coins: number; streakDay: number; message: string } | { ok: false; code: string; message: string };

/**
 * @param hideWhenClaimed /mypage: nothing once today's bonus was claimed before this visit; a claim made
 *   here keeps its answer shown (the page's data is reloaded after the claim).
 */
export function LoginBonusCard({
  bonus,
  hideWhenClaimed = false,
}: {
  bonus: LoginBonusCardData;
  hideWhenClaimed?: boolean;
}) {
  const fetcher = useFetcher<LoginBonusActionData>();
  const answer = fetcher.data;
  const onSubmit = useOneSubmission(fetcher.state, answer);
  if (hideWhenClaimed && bonus.claimed && !answer) return null;
  const claimed = bonus.claimed || answer?.ok === true;
  const coins = answer?.ok ? answer.coins : bonus.coins;
  return (
    <section aria-labelledby="login-bonus-title" className="mb-4 rounded-2xl bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 id="login-bonus-title" className="text-base font-bold">
          ログインボーナス
        </h2>
        <AppLink to={ACTION_PATH} className="text-xs text-muted underline">
          受け取り履歴
        </AppLink>
      </div>
      <ol className="mt-3 grid grid-flow-col gap-1 text-center text-xs" aria-label="連続ログインのコイン">
        {bonus.streakCoins.map((amount, index) => {
          const day = index + 1;
          const current = day === bonus.tableDay;
          return (
            <li
              key={day}
              aria-current={current ? 'step' : undefined}
              className={`rounded-lg px-1 py-1.5 ${current ? 'bg-primary-ink font-bold text-white' : 'bg-canvas text-muted'}`}
            >
              <span className="block">{day}日目</span>
              <span className="block">{formatCoins(amount)}</span>
            </li>
          );
        })}
      </ol>
      {claimed ? (
        <p className="mt-3 text-sm" role="status">
          {answer?.ok
            ? answer.message
            : `本日分（${formatCoins(coins)}コイン・連続${bonus.streakDay}日目）は受け取り済みです。明日0時（日本時間）にまた受け取れます。`}
        </p>
      ) : (
        <fetcher.Form method="post" action={ACTION_PATH} onSubmit={onSubmit} className="mt-3">
          <Button type="submit" fullWidth loading={fetcher.state !== 'idle'}>
            {formatCoins(coins)}コインを受け取る（連続{bonus.streakDay}日目）
          </Button>
        </fetcher.Form>
      )}
      {answer && !answer.ok && (
        <p className="mt-2 text-sm font-bold text-red-700" role="alert">
          {answer.message}
        </p>
      )}
    </section>
  );
}
