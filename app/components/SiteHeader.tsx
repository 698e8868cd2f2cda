// The sticky header: logo, genres, ranking, shop, mailbox and mypage; sign-in buttons for visitors.
import { useNavigation } from 'react-router';
import { AppLink, AppNavLink } from './AppLink';
import { BellIcon, UserIcon, TrophyIcon, ShopIcon } from './icons';
import { buttonClassName } from './Button';
import { useRootData } from '~/lib/root-data';

export function SiteHeader() {
  const root = useRootData();
  const member = root?.member ?? null;
  return (
    <header className="sticky top-0 z-header border-b border-line bg-white/95 pt-safe backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-3 sm:px-4">
        <AppLink to="/" className="flex shrink-0 items-center gap-1.5 text-lg font-black tracking-tight text-primary-ink" aria-label={`${root?.site.name ?? ''} トップページ`}>
          <span aria-hidden="true" className="inline-block size-7 rounded-lg bg-gradient-to-br from-primary to-amber-400" />
          <span className="text-base sm:text-lg">{root?.site.name}</span>
        </AppLink>
        <nav aria-label="メインメニュー" className="hidden flex-1 items-center gap-1 text-sm font-bold md:flex">
          {root?.genres.map((genre) => (
            <AppNavLink key={genre.id} to={`/gacha/${genre.id}`} className={({ isActive }) => `rounded-full px-3 py-2 hover:bg-canvas ${isActive ? 'text-primary-ink' : 'text-ink'}`}>
              {genre.name}
            </AppNavLink>
          ))}
          <AppNavLink to="/ranking/daily/goodluck" className="flex items-center gap-1 rounded-full px-3 py-2 hover:bg-canvas">
            <TrophyIcon className="size-4" />ランキング
          </AppNavLink>
        </nav>
        <div className="ml-auto flex items-center gap-1.5">
          {member ? (
            <>
              <AppLink to="/shop" className={buttonClassName({ className: '!min-h-9 px-3 text-xs' })}>
                <ShopIcon className="size-4" />チャージ
              </AppLink>
              <AppLink to="/myinbox/idvs" className="flex size-10 items-center justify-center rounded-full hover:bg-canvas" aria-label="メールボックス">
                <BellIcon className="size-6" />
              </AppLink>
              <AppLink to="/mypage" className="hidden size-10 items-center justify-center rounded-full hover:bg-canvas md:flex" aria-label="マイページ">
                <UserIcon className="size-6" />
              </AppLink>
            </>
          ) : (
            <>
              <AppLink to="/auth/sign_in" className={buttonClassName({ variant: 'plain', className: '!min-h-9 px-3 text-xs' })}>ログイン</AppLink>
              <AppLink to="/auth/sign_up" className={buttonClassName({ className: '!min-h-9 px-3 text-xs' })}>新規登録</AppLink>
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
    <div role="progressbar" aria-label="ページを読み込み中" className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden bg-primary-soft">
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-primary" />
    </div>
  );
}
