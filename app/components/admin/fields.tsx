// Small pieces of the admin forms: the input style and a field's error line (linked by its id).
import { ActionAnswer } from './ActionAnswer';
export const inputClass = 'mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm font-normal';

export function FieldError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} className="mt-1 block text-xs font-bold text-danger">
      {message}
    </span>
  );
}

/**
 * The answer of one form's action, shown on that form only: the admin area's one banner (decision 067).
 * @example <FormAnswer answer={answer} form="new" />
 */
export function FormAnswer({
  answer,
  form,
}: {
  answer: { ok?: string; error?: string; form?: string } | undefined;
  form: string;
}) {
  return <ActionAnswer answer={answer} form={form} />;
}
