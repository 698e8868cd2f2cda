// The contact form's shared bits: the select's look, a field's error line and sizes in MB.

export const megabytes = (bytes: number) => `${Math.floor(bytes / 100_000) / 10}MB`;
export const selectClass = (error?: string) =>
  `min-h-12 w-full rounded-xl border bg-white px-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-red-500' : 'border-line'}`;

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm font-bold text-red-600">
      {message}
    </p>
  ) : null;
}
