// A spinner that screen readers announce as 読み込み中.
export function Spinner({ className = 'size-5', label = '読み込み中' }: { className?: string; label?: string | null }) {
  return (
    <svg
      className={`animate-spin ${className}`}
      viewBox="0 0 24 24"
      fill="none"
      role={label ? 'img' : undefined}
      aria-label={label ?? undefined}
      aria-hidden={label ? undefined : true}
    >
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

/** Shown over the page while the app loads (hidden again by CSS once hydrated). */
export function AppLoadingOverlay() {
  return (
    <div
      id="app-loading"
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-0 z-loading flex items-center justify-center bg-white/60"
    >
      <Spinner className="size-10 text-primary-ink" label="読み込み中" />
    </div>
  );
}
