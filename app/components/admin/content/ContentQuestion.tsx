// The content editor's questions before publishing, unpublishing, cancelling a booking or rolling back:
// the admin area's ConfirmDialog (decision 067), asked from a button and closed when the action answers.
import { useEffect, useState } from 'react';
import { useActionData } from 'react-router';
import { ConfirmDialog } from '~/components/admin/ConfirmDialog';

/** One question: what it asks, what will happen, its button, and the fields the action posts. */
export interface ContentQuestion {
  title: string;
  detail?: string;
  confirmLabel: string;
  danger?: boolean;
  /** The action's fields: its intent first. */
  hidden: { intent: string } & Record<string, string | number>;
}

/**
 * The question open now, and a way to ask one; it closes when the action answers.
 * @example const [asking, ask] = useContentQuestion(); … <Button onClick={() => ask({ … })}>…</Button>
 */
export function useContentQuestion() {
  const answer = useActionData();
  const [asking, ask] = useState<ContentQuestion | null>(null);
  useEffect(() => {
    if (answer) ask(null);
  }, [answer]);
  return [asking, ask] as const;
}

/** The dialog of the question open now (nothing when none is). */
export function ContentQuestionDialog({
  asking,
  busy,
  onCancel,
}: {
  asking: ContentQuestion | null;
  busy: (intent: string) => boolean;
  onCancel: () => void;
}) {
  if (!asking) return null;
  return (
    <ConfirmDialog
      title={asking.title}
      confirmLabel={asking.confirmLabel}
      confirmVariant={asking.danger ? 'danger' : 'primary'}
      hidden={asking.hidden}
      busy={busy(asking.hidden.intent)}
      onCancel={onCancel}
    >
      {asking.detail ? <p className="text-sm">{asking.detail}</p> : null}
    </ConfirmDialog>
  );
}
