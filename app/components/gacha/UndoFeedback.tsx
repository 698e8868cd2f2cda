// The outcome of the last prize choice, in the sticky bar where the member's finger is, and after a
// conversion 「元に戻す」 with the seconds left (decision 057). The countdown runs from the moment the
// answer arrived for the window the server gave (CONVERT_UNDO_SECONDS), so a phone's clock does not
// matter; the server decides anyway (after its window an undo is refused with a message).
import { useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import type { PrizeActionData } from '~/controllers/prize-actions.server';

/** Seconds left of a window of `seconds` that opened at `since` (ms), never below 0. */
function useSecondsLeft(seconds: number, since: number | null) {
  const [now, setNow] = useState(() => since ?? 0);
  useEffect(() => {
    if (since === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [since]);
  if (since === null) return 0;
  return Math.max(0, Math.ceil(seconds - (now - since) / 1000));
}

/**
 * @example <UndoFeedback actionData={actionData} dark busy={false} />
 */
export function UndoFeedback({
  actionData,
  dark,
  busy,
}: {
  actionData: PrizeActionData | undefined;
  dark: boolean;
  busy: boolean;
}) {
  const navigation = useNavigation();
  const undo = actionData?.ok ? (actionData.undo ?? null) : null;
  const [since, setSince] = useState<number | null>(null);
  useEffect(() => setSince(undo ? Date.now() : null), [undo]);
  const left = useSecondsLeft(undo?.seconds ?? 0, since);
  const undoing = busy && navigation.formData?.get('intent') === 'undo';
  if (!actionData) return <p role="status" className="sr-only" />;
  const tone = actionData.ok
    ? dark
      ? 'bg-emerald-400/20 text-emerald-100'
      : 'bg-emerald-50 text-emerald-800'
    : dark
      ? 'bg-red-400/20 text-red-100'
      : 'bg-red-50 text-red-700';
  const offered = undo && (left > 0 || since === null || undoing);
  return (
    <div className={`mb-2 flex items-center gap-2 rounded-xl px-3 py-2 ${tone}`} data-testid="prize-feedback-box">
      <p role={actionData.ok ? 'status' : 'alert'} className="flex-1 text-sm font-bold" data-testid="prize-feedback">
        {actionData.message}
      </p>
      {offered && (
        <Form method="post" replace preventScrollReset className="shrink-0">
          <input type="hidden" name="intent" value="undo" />
          <input type="hidden" name="conversionId" value={undo.conversionId} />
          <Button
            type="submit"
            variant="plain"
            loading={undoing}
            disabled={busy}
            className="!min-h-11 !px-3 whitespace-nowrap"
            data-testid="undo-conversion"
          >
            元に戻す{since !== null && !undoing ? `（${left}秒）` : ''}
          </Button>
        </Form>
      )}
    </div>
  );
}
