// The busy page: what every page shows while the database is away (503 with Retry-After, decision 054).
// It looks like the not-found page, its sibling error page, and offers to try the same page again.
import { WarningIcon } from './icons';
import { buttonClassName } from './Button';

export const BUSY_TITLE = 'ただいま混み合っています';
export const BUSY_SUBTITLE = 'しばらく時間をおいてから、もう一度お試しください。';
export const BUSY_RETRY = 'もう一度読み込む';

/** @example <BusyView retryHref="/gacha/pokemon" /> */
export function BusyView({ retryHref }: { retryHref: string }) {
  return (
    <main
      className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 py-16 text-center"
      data-testid="busy"
    >
      <WarningIcon className="size-16 text-primary-ink" />
      <h1 className="text-xl font-bold">{BUSY_TITLE}</h1>
      <p className="text-muted">{BUSY_SUBTITLE}</p>
      <p className="text-sm text-muted">送信した内容が二重に処理されることはありません。</p>
      {/* Plain anchors: a full load, so the page comes back whole once the shop answers again. */}
      <a href={retryHref} className={buttonClassName({ size: 'lg', fullWidth: true, className: 'mt-4' })}>
        {BUSY_RETRY}
      </a>
      <a href="/" className="text-sm font-bold text-primary-ink underline">
        トップページへ
      </a>
    </main>
  );
}
