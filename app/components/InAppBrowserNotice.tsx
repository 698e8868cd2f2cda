// Shown instead of a page whose guard refuses this browser (ng-internal, ng-external and kin).
import { useLocation } from 'react-router';
import type { InAppNotice } from '#modules/kernel/navigation';
import { WarningIcon } from './icons';
import { buttonClassName } from './Button';

export function InAppBrowserNotice({ kind }: { kind: InAppNotice }) {
  const location = useLocation();
  const external = kind === 'open-external';
  return (
    <main className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-4 px-6 py-16 text-center">
      <WarningIcon className="size-14 text-primary-ink" />
      <h1 className="text-lg font-bold">{external ? 'ブラウザで開いてください' : 'アプリでご利用ください'}</h1>
      <p className="text-sm leading-relaxed text-muted">
        {external
          ? 'このページはアプリ内ブラウザではご利用いただけません。右上のメニューから「ブラウザで開く」を選び、Safari や Chrome で開き直してください。'
          : 'このページはアプリ専用です。アプリからもう一度お試しください。'}
      </p>
      {external ? (
        <p
          className="w-full break-all rounded-lg bg-white p-3 text-left text-xs text-muted"
          aria-label="このページのアドレス"
        >
          {location.pathname + location.search}
        </p>
      ) : null}
      <a href="/" className={buttonClassName({ variant: 'plain', fullWidth: true })}>
        トップページへ
      </a>
    </main>
  );
}
