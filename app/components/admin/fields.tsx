// Small pieces of the admin forms: the input style and a field's error line (linked by its id).
export const inputClass = 'mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm font-normal';

export function FieldError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} className="mt-1 block text-xs font-bold text-danger">
      {message}
    </span>
  );
}

/** The answer of one form's action, shown on that form only (an error as an alert, else a status). */
export function FormAnswer({
  answer,
  form,
}: {
  answer: { ok?: string; error?: string; form?: string } | undefined;
  form: string;
}) {
  if (!answer || answer.form !== form) return null;
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
