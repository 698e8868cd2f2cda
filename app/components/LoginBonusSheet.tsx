// The login bonus offered on the member's first page of the day (decision 060): after the page has loaded,
// the browser asks /myinbox/bonus/today once per Japan-time day and, if today's bonus waits, opens a stamp
// sheet with one claim button (the same action as the /mypage card). Dismissed, it stays away until tomorrow;
// /mypage and the history page show the card instead. Visitors and staff never see it.
import { useEffect, useState } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { Sheet } from './Sheet';
import { Button, useOneSubmission } from './Button';
import { AppLink } from './AppLink';
import { LOGIN_BONUS_ACTION_PATH, type LoginBonusActionData, type LoginBonusCardData } from './LoginBonusCard';
import { useRootData } from '~/lib/root-data';
import { formatCoins } from '~/lib/numbers';

/**
 * Local storage: the Japan-time day the sheet was last offered on this browser (one offer a day per browser:
 * a second member signing in on the same phone that day finds the bonus on /mypage).
 */
export const LOGIN_BONUS_OFFERED_KEY = 'oripa.loginBonusOffered';

/** Pages that show the login bonus card themselves. */
const PAGES_WITH_THE_CARD = ['/mypage', '/myinbox/bonus/logs'];

/** Today in Japan as YYYY-MM-DD (the bonus's day; the server decides the claim, this only paces the offer). */
export const japanDay = (now = new Date()) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

function offeredToday(): boolean {
  try {
    return window.localStorage.getItem(LOGIN_BONUS_OFFERED_KEY) === japanDay();
  } catch {
    return true; // no storage (private mode): never nag
  }
}

function rememberOffered() {
  try {
    window.localStorage.setItem(LOGIN_BONUS_OFFERED_KEY, japanDay());
  } catch {
    // nothing to remember with
  }
}

/** The streak table as stamps: the days before today stamped, today's circled. */
function StampSheet({ bonus, claimedNow }: { bonus: LoginBonusCardData; claimedNow: boolean }) {
  return (
    <ol className="mt-4 grid grid-cols-7 gap-1.5 text-center" aria-label="連続ログインのスタンプ">
      {bonus.streakCoins.map((amount, index) => {
        const day = index + 1;
        const stamped = day < bonus.tableDay || (day === bonus.tableDay && claimedNow);
        const today = day === bonus.tableDay;
        return (
          <li
            key={day}
            aria-current={today ? 'step' : undefined}
            className={`flex aspect-square flex-col items-center justify-center rounded-full border-2 text-xs font-bold leading-tight ${
              stamped
                ? 'border-primary-ink bg-primary-ink text-white'
                : today
                  ? 'border-primary-ink bg-white text-primary-ink'
                  : 'border-line bg-white text-muted'
            }`}
          >
            <span>{day}日目</span>
            <span className="tabular-nums">{formatCoins(amount)}</span>
            {stamped ? <span className="sr-only">（スタンプ済み）</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

export function LoginBonusSheet() {
  const root = useRootData();
  const memberId = root?.member?.id ?? null;
  const { pathname } = useLocation();
  const claim = useFetcher<LoginBonusActionData>();
  const [bonus, setBonus] = useState<LoginBonusCardData | null>(null);
  const [open, setOpen] = useState(false);
  const onCardPage = PAGES_WITH_THE_CARD.includes(pathname);

  // Asked once per day and browser, with a plain fetch (not a fetcher: it is not revalidated after every
  // action the member takes on later pages).
  useEffect(() => {
    if (!memberId || onCardPage || offeredToday()) return;
    let current = true;
    fetch('/myinbox/bonus/today', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then((response) => (response.ok ? (response.json() as Promise<{ bonus: LoginBonusCardData | null }>) : null))
      .then((answer) => {
        if (answer) rememberOffered();
        if (!current || !answer?.bonus || answer.bonus.claimed) return;
        setBonus(answer.bonus);
        setOpen(true);
      })
      .catch(() => undefined); // offline: the /mypage card is still there
    return () => {
      current = false;
    };
  }, [memberId, onCardPage]);

  const onSubmit = useOneSubmission(claim.state, claim.data);
  if (!open || !bonus) return null;
  const answer = claim.data;
  const busy = claim.state !== 'idle';
  const claimed = answer?.ok === true;
  return (
    <Sheet title="ログインボーナス" onClose={() => setOpen(false)} busy={busy} testId="login-bonus-sheet">
      <p className="mt-2 text-center text-sm text-muted">
        {claimed ? '今日のスタンプを押しました。' : `連続${bonus.streakDay}日目のボーナスが届いています。`}
      </p>
      <StampSheet bonus={bonus} claimedNow={claimed} />
      {answer ? (
        <p
          role={answer.ok ? 'status' : 'alert'}
          className={`mt-4 text-center text-sm font-bold ${answer.ok ? 'text-emerald-800' : 'text-red-700'}`}
        >
          {answer.message}
        </p>
      ) : null}
      <div className="mt-4 flex flex-col gap-2">
        {claimed ? (
          <Button type="button" fullWidth onClick={() => setOpen(false)}>
            閉じる
          </Button>
        ) : (
          <claim.Form method="post" action={LOGIN_BONUS_ACTION_PATH} onSubmit={onSubmit}>
            <Button type="submit" fullWidth loading={busy}>
              {formatCoins(bonus.coins)}コインを受け取る
            </Button>
          </claim.Form>
        )}
        {!claimed ? (
          <Button type="button" variant="plain" fullWidth disabled={busy} onClick={() => setOpen(false)}>
            あとで（マイページからも受け取れます）
          </Button>
        ) : null}
        <AppLink
          to={LOGIN_BONUS_ACTION_PATH}
          className="text-center text-xs text-muted underline"
          onClick={() => setOpen(false)}
        >
          受け取り履歴
        </AppLink>
      </div>
    </Sheet>
  );
}
