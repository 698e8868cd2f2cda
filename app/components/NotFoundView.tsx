// The not-found page of the specification, word for word; every application error shows it too.
import { WarningIcon } from './icons';
import { buttonClassName } from './Button';

export const NOT_FOUND_TITLE = '指定のページが見付かりません';
export const NOT_FOUND_SUBTITLE = 'トップページにお戻りください。';
export const NOT_FOUND_BUTTON = 'トップページへ';

export function NotFoundView() {
  return (
    <main
      className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 py-16 text-center"
      data-testid="not-found"
    >
      <WarningIcon className="size-16 text-primary-ink" />
      <h1 className="text-xl font-bold">{NOT_FOUND_TITLE}</h1>
      <p className="text-muted">{NOT_FOUND_SUBTITLE}</p>
      {/* A plain anchor: after an error the router itself may be broken, a full load always works. */}
      <a href="/" className={buttonClassName({ size: 'lg', fullWidth: true, className: 'mt-4' })}>
        {NOT_FOUND_BUTTON}
      </a>
    </main>
  );
}
