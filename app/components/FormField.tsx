// A labelled input with its error under it, wired for screen readers (aria-invalid, aria-describedby).
import type { InputHTMLAttributes, ReactNode } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

export function TextField({ name, label, error, hint, id, ...rest }: TextFieldProps) {
  const inputId = id ?? `field-${name}`;
  const describedBy =
    [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-bold">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`min-h-12 rounded-xl border bg-white px-4 text-base outline-none transition focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-red-500' : 'border-line'}`}
        {...rest}
      />
      {hint ? (
        <div id={`${inputId}-hint`} className="text-xs text-muted">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className="text-sm font-bold text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The form-level error, announced when it appears. */
export function FormAlert({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-bold text-red-700">
      {message}
    </div>
  );
}
