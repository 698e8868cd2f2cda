// The maintenance notice at the top of every page while maintenance mode is on (docs/decisions/025):
// the operator's message (or the default) and the planned end in Japan time. Announced politely.
import type { RootData } from '~/lib/root-data';

export function MaintenanceBanner({ maintenance }: { maintenance: NonNullable<RootData['maintenance']> }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="relative z-[2001] border-b border-amber-300 bg-amber-50 px-4 py-2.5 text-sm text-amber-950"
      data-testid="maintenance-banner"
    >
      <div className="mx-auto max-w-5xl">
        <p className="font-bold">メンテナンス中のお知らせ</p>
        <p className="mt-0.5">{maintenance.message}</p>
        {maintenance.endsAtText ? (
          <p className="mt-0.5 font-bold">終了予定：{maintenance.endsAtText}（日本時間）</p>
        ) : null}
      </div>
    </div>
  );
}
