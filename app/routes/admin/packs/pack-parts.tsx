// The pack editor's shared bits: the loader's data, number formats, the steps' navigation and a field
// with its error.
import { Link } from 'react-router';
import type { Route } from './+types/pack';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { FieldError, inputClass } from '~/components/admin/fields';
import { PACK_STEPS, type PackEditorAnswer, type PackStep } from '~/lib/admin-packs';

export type Data = Route.ComponentProps['loaderData'];
export const n = (v: number) => v.toLocaleString('ja-JP');

/** The editor's answer, with the refusal's words for the whole pack (`fields._`) under it. */
export function PackAnswer({ answer }: { answer: PackEditorAnswer | undefined }) {
  return (
    <ActionAnswer
      answer={answer}
      detail={answer?.fields?._ ? <span className="block font-bold">{answer.fields._}</span> : null}
    />
  );
}

export function Steps({ step, packId }: { step: PackStep; packId: string }) {
  return (
    <nav aria-label="編集の段階" className="mt-4">
      <ol className="flex flex-wrap gap-2 text-sm">
        {PACK_STEPS.map((s, i) => (
          <li key={s.id}>
            <Link
              to={`/admin/packs/${packId}?step=${s.id}`}
              aria-current={s.id === step ? 'step' : undefined}
              className={`block rounded-full border px-3 py-1 font-bold ${s.id === step ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
            >
              {i + 1}. {s.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Field({
  label,
  name,
  answer,
  className = '',
  ...rest
}: {
  label: string;
  name: string;
  answer?: { fields?: Record<string, string> };
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const error = answer?.fields?.[name];
  const id = `f-${name.replace(/\./g, '-')}`;
  return (
    <label className={`text-xs font-bold ${className}`} htmlFor={id}>
      {label}
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
        {...rest}
      />
      <FieldError id={`${id}-error`} message={error} />
    </label>
  );
}
