// The farm page's number input and its words for durations.
import { FieldError, inputClass } from '~/components/admin/fields';
import type { farmPageLoader } from '~/controllers/admin-farm.server';

/** What the farm page's loader gives the page (its body, also when the range is refused). */
export type FarmPage = Extract<Awaited<ReturnType<typeof farmPageLoader>>, { canWrite: boolean }>;
export type Seed = FarmPage['seeds'][number];

/** Minutes in the operators' words: 90 → 「1時間30分」. */
export function minutesText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest}分`;
  return rest ? `${hours}時間${rest}分` : `${hours}時間`;
}

/** A number input with its unit after it, its hint and its error (linked for screen readers). */
export function NumberInput({
  id,
  name,
  label,
  unit,
  hint,
  defaultValue,
  error,
}: {
  id: string;
  name: string;
  label: string;
  unit: string;
  hint?: string;
  defaultValue: number | string | undefined;
  error: string | undefined;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="text-sm font-bold">
      <label htmlFor={id}>{label}</label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          name={name}
          inputMode="numeric"
          required
          defaultValue={defaultValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={`${inputClass} max-w-40`}
        />
        {unit ? <span className="mt-1 font-normal">{unit}</span> : null}
      </div>
      {hint ? (
        <span id={`${id}-hint`} className="mt-1 block text-xs font-normal text-muted">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
