// The inquiry page's answer to a form (beside the form that sent it) and its fields' look.
import type { inquiryLoader, InquiryActionData } from '~/controllers/admin-inquiries.server';

/** What the inquiry page's loader gives the page. */
export type InquiryPage = Awaited<ReturnType<typeof inquiryLoader>>;
export type BusyOn = (intent: string) => boolean;

export function Answer({ answer, form }: { answer: InquiryActionData | undefined; form: string }) {
  if (!answer || (answer.form ?? 'reply') !== form) return null;
  return answer.error ? (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
      {answer.error}
    </p>
  ) : (
    <p role="status" className="rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
      {answer.ok}
    </p>
  );
}

export const field = 'mt-1 block w-full rounded-lg border border-line bg-white px-3 text-sm';
