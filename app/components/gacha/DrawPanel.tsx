// The draw buttons (1回 / 10連 / 100連) and the confirmation: cost, balance and balance after.
// Without JavaScript the buttons open the confirmation through the URL (?confirm=10); with it, in
// place. The confirmation's form carries a one-time idempotency key, so a double tap draws once.
// Each button says the total (「10連 5,000コイン」) and, when the balance is short, what is missing;
// it still opens the confirmation, whose 「コインを購入する」 carries the pack and the count to the
// shop (and 「会員登録して引く」 or 「ログインして引く」 brings a visitor back to the same confirmation).
import { lazy, Suspense, useContext, useEffect, useId, useState } from 'react';
import { Form, useLocation } from 'react-router';
import { Button } from '~/components/Button';
import { formatCoins } from '~/lib/numbers';
import { drawOptionLabel } from './labels';
import type { DrawPanelProps } from './ConfirmDialog';
import { loadConfirmDialog, loadedConfirmDialog, ServerConfirmDialog } from './dialog-loader';
import { useIsPersonalShell } from '~/lib/root-data';
import { drawMissingMarkers, drawMissingTexts } from '#modules/kernel/personal-holes';

export type { DrawPanelProps } from './ConfirmDialog';

/**
 * The sheet in the browser before its script has arrived: a tap then waits for it (the panel asks for it as
 * soon as it is up). The server, and the browser once the script is there, render the sheet itself.
 */
const LazyConfirmDialog = lazy(() => loadConfirmDialog().then((component) => ({ default: component })));

// A page whose address opens the sheet (?confirm=N: after signing in to draw, or without JavaScript) hydrates
// with the sheet's script already here, so its first render is the server's HTML: this module (and so the
// page's hydration) waits for it.
if (!import.meta.env.SSR && new URLSearchParams(window.location.search).has('confirm'))
  await loadConfirmDialog().catch(() => undefined);

export function DrawPanel(props: DrawPanelProps) {
  const { price, options, remaining, onSale, compact, balance } = props;
  const [open, setOpen] = useState<number | null>(props.confirmFromUrl);
  const idBase = useId();
  const ConfirmDialog = useContext(ServerConfirmDialog) ?? loadedConfirmDialog();
  const shell = useIsPersonalShell();
  const location = useLocation();
  useEffect(() => setOpen(props.confirmFromUrl), [props.confirmFromUrl]);
  useEffect(() => {
    if (props.error) setOpen((current) => current);
  }, [props.error]);
  useEffect(() => {
    void loadConfirmDialog();
  }, []);
  return (
    <div className="flex flex-col gap-1.5">
      <Form
        method="get"
        replace
        preventScrollReset
        className={`grid gap-2 ${options.length >= 3 ? 'grid-cols-3' : options.length === 2 ? 'grid-cols-2' : 'grid-cols-1'}`}
      >
        {options.map((count) => {
          const short = remaining < count;
          const disabled = !onSale || short;
          // Members only: what the balance lacks for this button (visitors see the price alone). The line is
          // there for every member, shown by their coins: a members' shell fills it per member (decision 077).
          const missing =
            balance === null || disabled
              ? null
              : import.meta.env.SSR && shell
                ? drawMissingMarkers(price * count)
                : drawMissingTexts(price * count, balance);
          const missingId = `${idBase}-missing-${count}`;
          return (
            <div key={count} className="flex min-w-0 flex-col gap-0.5">
              <Button
                type="submit"
                name="confirm"
                value={String(count)}
                size="lg"
                // The deeper pink: the small price line under the label must reach AA contrast too. A button
                // that cannot be used is plain grey, so nobody mistakes it for a live one.
                className={`!px-1 flex-col !gap-0 leading-tight ${disabled ? '!bg-slate-300 !text-slate-700 disabled:!opacity-100' : '!bg-primary-ink hover:!bg-primary-dark'} ${compact ? '!text-lg' : ''}`}
                disabled={disabled}
                aria-describedby={missing ? missingId : undefined}
                data-testid={`draw-option-${count}`}
                onClick={(event) => {
                  event.preventDefault();
                  setOpen(count);
                }}
              >
                <span>{drawOptionLabel(count)}</span>
                <span className="text-xs font-bold">{`${formatCoins(price * count)}コイン`}</span>
              </Button>
              {missing && (
                // On a narrow phone a long amount breaks between the number and 「コイン不足」, never inside a word.
                <p
                  id={missingId}
                  className={`${missing['draw.missingDisplay']} text-center text-xs font-bold leading-tight tracking-tight text-red-700`}
                  data-testid={`draw-missing-${count}`}
                >
                  <span className="whitespace-nowrap">{missing['draw.missing']}</span>
                  <span className="whitespace-nowrap">{missing['draw.missingUnit']}</span>
                </p>
              )}
            </div>
          );
        })}
      </Form>
      {/* The phone bar says a closed pack's reason in its own top line. */}
      {!onSale && !(compact && props.closedReason) && (
        <p className="text-center text-xs font-bold text-muted" data-testid="draw-closed-reason">
          {props.closedReason ?? 'このオリパは販売していません。'}
        </p>
      )}
      {open !== null &&
        (ConfirmDialog ? (
          <ConfirmDialog {...props} count={open} onClose={() => setOpen(null)} cancelHref={location.pathname} />
        ) : (
          <Suspense fallback={null}>
            <LazyConfirmDialog {...props} count={open} onClose={() => setOpen(null)} cancelHref={location.pathname} />
          </Suspense>
        ))}
    </div>
  );
}
