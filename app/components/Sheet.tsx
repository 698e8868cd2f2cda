// A bottom sheet (a centred dialog on wide screens) for confirmations and card details: focus moves
// in, Escape and the backdrop close it unless an action is running, and the page behind keeps still.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface SheetProps {
  title: ReactNode;
  onClose: () => void;
  /** While true (a submission runs) the sheet cannot be closed. */
  busy?: boolean;
  children: ReactNode;
  /** A test hook for the dialog. */
  testId?: string;
}

/**
 * @example
 * {open && <Sheet title="12枚をコインに交換しますか？" onClose={() => setOpen(false)}>…</Sheet>}
 */
export function Sheet({ title, onClose, busy = false, children, testId }: SheetProps) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    titleRef.current?.focus({ preventScroll: true });
    return () => {
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busy) onCloseRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy]);
  return (
    <div
      className="fixed inset-0 z-overlay flex items-end justify-center bg-ink/60 sm:items-center sm:p-4"
      role="presentation"
      onClick={(event) => event.target === event.currentTarget && !busy && onClose()}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        className="max-h-[90dvh] w-full max-w-md overflow-y-auto rounded-t-3xl bg-white p-5 pb-[calc(env(safe-area-inset-bottom)+1.5rem)] text-ink shadow-xl sm:rounded-3xl sm:pb-5"
      >
        <h2
          id={titleId}
          ref={titleRef}
          tabIndex={-1}
          className="text-center text-lg font-black leading-snug outline-none"
        >
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
