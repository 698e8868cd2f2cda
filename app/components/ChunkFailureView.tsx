// A page whose code could not be fetched after the reload guard's one reload (client-recovery.ts): the
// member is told so in plain words and gets a reload button, instead of a dead page or "page not found".
import { WarningIcon } from './icons';
import { buttonClassName } from './Button';
import { CHUNK_FAILURE_BUTTON, CHUNK_FAILURE_TEXT, CHUNK_FAILURE_TITLE } from '~/lib/chunk-guard-boot';

export function ChunkFailureView({ siteName }: { siteName?: string }) {
  return (
    <>
      <title>{siteName ? `${CHUNK_FAILURE_TITLE} | ${siteName}` : CHUNK_FAILURE_TITLE}</title>
      <main
        className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 py-16 text-center"
        data-testid="chunk-failure"
      >
        <WarningIcon className="size-16 text-primary-ink" />
        <h1 className="text-xl font-bold">{CHUNK_FAILURE_TITLE}</h1>
        <p className="text-muted">{CHUNK_FAILURE_TEXT}</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className={buttonClassName({ size: 'lg', fullWidth: true, className: 'mt-4' })}
        >
          {CHUNK_FAILURE_BUTTON}
        </button>
      </main>
    </>
  );
}
