// Small pieces of the admin forms: the input style and a field's error line (linked by its id). A form's
// answer is <ActionAnswer> (./ActionAnswer.tsx, decision 067).
export const inputClass = 'mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-sm font-normal';

export function FieldError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} className="mt-1 block text-xs font-bold text-danger">
      {message}
    </span>
  );
}
