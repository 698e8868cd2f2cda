// The sticky header: logo, genres, ranking, the member's coins with チャージ, mailbox and mypage (and
// the admin area's link for staff whose access is ok); sign-in buttons for visitors.
import { useNavigation } from 'react-router';
import { AppLink, AppNavLink } from './AppLink';
import { BellIcon, UserIcon, TrophyIcon, ShopIcon, CoinIcon } from './icons';
import { buttonClassName } from './Button';
import { usePersonalTexts, useRootData } from '~/lib/root-data';
import { useUnreadMails } from '~/lib/unread-mails';

/**
 * The bell: the mailbox with its unread count as a badge (「99+」 beyond 99), read out in its label.
 * @example <MailBell />
 */
export function MailBell() {
  const root = useRootData();
  const unread = useUnreadMails(root?.unreadMails ?? null, root);
  // Texts, not numbers: a members' shell holds markers here that the server fills per member (decision 077).
  const texts = usePersonalTexts(unread);
  if (!texts) return null;
  return (
    <AppLink
      to="/myinbox/idvs"
      className="relative flex size-10 items-center justify-center rounded-full hover:bg-canvas"
      data-testid="header-mail-bell"
    >
      {/* The name is text, not aria-label: the badge's visible number then never contradicts it. */}
      <span className="sr-only" data-testid="header-mail-label">
        {texts['bell.label']}
      </span>
      <BellIcon className="size-6" />
      {/* Always in the page, shown by the count (「99+」 beyond 99): a shell has one shape for every member. */}
      <span
        aria-hidden="true"
        data-testid="header-mail-unread"
        className={`${texts['bell.badgeDisplay']} absolute right-0.5 top-0.5 min-w-5 items-center justify-center rounded-full bg-primary-ink px-1 text-xs font-bold leading-5 text-white`}
      >
        {texts['bell.badge']}
      </span>
    </AppLink>
  );
}

type WalletTone = 'light' | 'dark';

/**
 * The member's coins: total with paid and free apart, a link to the shop. It reads the root loader,
 * which every action (draw, conversion, purchase) revalidates, so it never needs a reload.
 */
function HeaderCoins({ tone }: { tone: WalletTone }) {
  const texts = usePersonalTexts();
  if (!texts) return null;
  return (
    <AppLink
      to="/shop"
      data-testid="header-coins"
      className={`flex min-h-10 items-center gap-1 whitespace-nowrap rounded-full px-2 leading-none ${tone === 'dark' ? 'bg-white/10 text-white hover:bg-white/20' : 'bg-canvas text-ink hover:bg-primary-soft'}`}
    >
      <CoinIcon className="size-5 shrink-0 text-amber-500" />
      <span className="flex flex-col items-end">
        <span className="sr-only">所持コイン</span>
        <b className="text-sm tabular-nums" data-testid="header-coins-total">
          {texts['wallet.total']}
        </b>
        {/* No number below 12 px (issue 29 item 11): on a phone the header has room for the total only; the
            split is on マイページ and the coin shop. */}
        <span className={`hidden text-xs tabular-nums sm:block ${tone === 'dark' ? 'text-white/80' : 'text-muted'}`}>
          有償{texts['wallet.paid']}・無償{texts['wallet.free']}
        </span>
      </span>
    </AppLink>
  );
}

/**
 * A member's wallet in any header: the coins (paid and free, to the shop) with 「チャージ」 beside them.
 * Every header (the site's, the external layout's, the draw result's) shows it, so it is written once.
 * Nothing for a visitor.
 * @example <HeaderWallet tone="dark" />
 */
export function HeaderWallet({ tone = 'light' }: { tone?: WalletTone }) {
  const wallet = useRootData()?.wallet;
  if (!wallet) return null;
  return (
    <div className="flex shrink-0 items-center gap-1.5" data-testid="header-wallet">
      <HeaderCoins tone={tone} />
      <AppLink
        to="/shop"
        data-testid="header-charge"
        className={buttonClassName({ className: '!min-h-9 !gap-1 !px-2.5 whitespace-nowrap text-xs' })}
      >
        <ShopIcon className="size-4" />
        チャージ
      </AppLink>
    </div>
  );
}

export function SiteHeader() {
  const root = useRootData();
  const member = root?.member ?? null;
  return (
    <header className="sticky top-0 z-header border-b border-line bg-white/95 pt-safe backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-3 sm:px-4">
        <AppLink
          to="/"
          className="flex shrink-0 items-center gap-1.5 text-lg font-black tracking-tight text-primary-ink"
          aria-label={`${root?.site.name ?? ''} トップページ`}
        >
          <span
            aria-hidden="true"
            className="inline-block size-7 rounded-lg bg-gradient-to-br from-primary to-amber-400"
          />
          {/* A member's phone header needs the room for the coins: the mark alone stands for the name. */}
          <span className={`text-base sm:text-lg ${member ? 'hidden sm:inline' : ''}`}>{root?.site.name}</span>
        </AppLink>
        <nav aria-label="メインメニュー" className="hidden flex-1 items-center gap-1 text-sm font-bold md:flex">
          {root?.genres.map((genre) => (
            <AppNavLink
              key={genre.id}
              to={`/gacha/${genre.id}`}
              className={({ isActive }) =>
                `rounded-full px-3 py-2 hover:bg-canvas ${isActive ? 'text-primary-ink' : 'text-ink'}`
              }
            >
              {genre.name}
            </AppNavLink>
          ))}
          <AppNavLink
            to="/ranking/daily/goodluck"
            className="flex items-center gap-1 rounded-full px-3 py-2 hover:bg-canvas"
          >
            <TrophyIcon className="size-4" />
            ランキング
          </AppNavLink>
        </nav>
        <div className="ml-auto flex items-center gap-1.5">
          {member ? (
            <>
              {root?.adminLink ? (
                <AppLink
                  to="/admin"
                  data-testid="header-admin-link"
                  className="flex min-h-9 items-center whitespace-nowrap rounded-full border border-ink px-2.5 text-xs font-bold text-ink hover:bg-canvas"
                >
                  管理<span className="sr-only sm:not-sr-only">画面</span>
                </AppLink>
              ) : null}
              <HeaderWallet />
              <MailBell />
              <AppLink
                to="/mypage"
                className="hidden size-10 items-center justify-center rounded-full hover:bg-canvas md:flex"
                aria-label="マイページ"
              >
                <UserIcon className="size-6" />
              </AppLink>
            </>
          ) : (
            <>
              <AppLink
                to="/auth/sign_in"
                className={buttonClassName({ variant: 'plain', className: '!min-h-9 px-3 text-xs' })}
              >
                ログイン
              </AppLink>
              <AppLink to="/auth/sign_up" className={buttonClassName({ className: '!min-h-9 px-3 text-xs' })}>
                新規登録
              </AppLink>
            </>
          )}
        </div>
      </div>
      <NavigationProgress />
    </header>
  );
}

/** A thin bar under the header while a navigation loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      role="progressbar"
      aria-label="ページを読み込み中"
      className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden bg-primary-soft"
    >
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-primary" />
    </div>
  );
}
