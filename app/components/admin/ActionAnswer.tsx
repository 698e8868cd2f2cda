// An admin action's answer (AdminActionResult in app/lib/admin-action.ts, docs/decisions/067) as one
// banner: the refusal as an alert, the done words as a status. With `form`, only that form's answer shows.
import type { ReactNode } from 'react';

export interface ActionAnswerProps {
  /** An AdminActionResult (or an older page's answer of the same fields). */
  answer: { ok?: string; error?: string; form?: string } | undefined | null;
  /** Show only the answer of this form (the action's `form`). */
  form?: string;
  /** Space around the banner, e.g. "mt-2". */
  className?: string;
  /** More under its words: about a refusal (every faulty line of a file), or what was made (its download). */
  detail?: ReactNode;
}

/**
 * @example <ActionAnswer answer={useActionData<MemberActionData>()} form="note" className="mt-2" />
 */
export function ActionAnswer({ answer, form, className = '', detail }: ActionAnswerProps) {
  if (!answer || (form !== undefined && answer.form !== form)) return null;
  if (answer.error)
    return detail ? (
      <div role="alert" className={`rounded-lg bg-red-50 p-3 text-sm text-danger ${className}`}>
        <p className="font-bold">{answer.error}</p>
        {detail}
      </div>
    ) : (
      <p role="alert" className={`rounded-lg bg-red-50 p-3 text-sm font-bold text-danger ${className}`}>
        {answer.error}
      </p>
    );
  if (!answer.ok) return null;
  if (detail)
    return (
      <div role="status" className={`rounded-lg bg-green-50 p-3 text-sm text-green-800 ${className}`}>
        <p className="font-bold">{answer.ok}</p>
        {detail}
      </div>
    );
  return (
    <p role="status" className={`rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800 ${className}`}>
      {answer.ok}
    </p>
  );
}
