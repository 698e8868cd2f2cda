// The admin area's one confirmation for destructive or spending actions (docs/decisions/067): a sheet
// (aria-modal, focus moves in and returns, Escape and the backdrop close it unless the action runs)
// that keeps Tab inside itself, with the question, what will happen, and two buttons: the action and
// やめる. It posts its own form (the hidden fields name the intent and the target), or, with `formId`,
// submits a form of the page that is already filled in, or, with `onConfirm`, posts nothing (a change
// on the page that the page saves later, such as removing an editor's slice).
import { useEffect, useRef, type ReactNode } from 'react';
import { Form } from 'react-router';
import { Button, type ButtonVariant } from '~/components/Button';
import { Sheet } from '~/components/Sheet';

export interface ConfirmDialogProps {
  /** The question, e.g. 「この調整を承認しますか？」. */
  title: ReactNode;
  /** The action's button label, e.g. 「承認して反映」. */
  confirmLabel: ReactNode;
  /** The action's button style: danger for what cannot be undone. */
  confirmVariant?: ButtonVariant;
  onCancel: () => void;
  /** While the action runs: the button spins and the dialog cannot be closed. */
  busy?: boolean;
  /** Hidden fields posted with the dialog's own form (intent, id, …). */
  hidden?: Record<string, string | number>;
  /** Submit this form of the page instead of the dialog's own. */
  formId?: string;
  /** Posts nothing: the action's button calls this (a change on the page, saved later with the page). */
  onConfirm?: () => void;
  /** Name and value of the action's button (sent only by the button that submits). */
  confirmName?: string;
  confirmValue?: string;
  /** The classes of the dialog's body (its own form, or the wrapper when `formId` is set). */
  bodyClassName?: string;
  testId?: string;
  /** What will happen, and the fields the action asks for (a reason, a date). */
  children?: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside the dialog that holds `inside`. */
function useFocusTrap(inside: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const dialog = inside.current?.closest<HTMLElement>('[role="dialog"]');
      if (event.key !== 'Tab' || !dialog) return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      const outside = !(active instanceof Node) || !dialog.contains(active);
      if (event.shiftKey && (outside || active === first || !focusable.includes(active as HTMLElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (outside || active === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [inside]);
}

/**
 * @example
 * {asking ? (
 *   <ConfirmDialog title="販売を終了しますか？" confirmLabel="終了する" confirmVariant="danger"
 *     hidden={{ intent: 'end' }} busy={busy} onCancel={() => setAsking(false)}>
 *     <p className="text-sm">…</p>
 *   </ConfirmDialog>
 * ) : null}
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  confirmVariant = 'primary',
  onCancel,
  busy = false,
  hidden = {},
  formId,
  onConfirm,
  confirmName,
  confirmValue,
  bodyClassName = 'grid gap-3',
  testId,
  children,
}: ConfirmDialogProps) {
  const body = useRef<HTMLDivElement>(null);
  useFocusTrap(body);
  const buttons = (
    <div className="flex flex-wrap gap-3">
      {onConfirm ? (
        <Button variant={confirmVariant} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      ) : (
        <Button
          type="submit"
          form={formId}
          name={confirmName}
          value={confirmValue}
          variant={confirmVariant}
          loading={busy}
        >
          {confirmLabel}
        </Button>
      )}
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        やめる
      </Button>
    </div>
  );
  return (
    <Sheet title={title} onClose={onCancel} busy={busy} testId={testId}>
      <div ref={body} className="contents">
        {formId || onConfirm ? (
          <div className={bodyClassName}>
            {children}
            {buttons}
          </div>
        ) : (
          <Form method="post" className={bodyClassName}>
            {Object.entries(hidden).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            {children}
            {buttons}
          </Form>
        )}
      </div>
    </Sheet>
  );
}
