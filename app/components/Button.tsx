// The shop's button: primary (pink), secondary and plain; loading, disabled and full-width states.
import { useEffect, useRef, type ButtonHTMLAttributes, type FormEvent, type ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'plain' | 'danger';
export type ButtonSize = 'md' | 'lg';

// Primary is the specification's pink (#ef3a6e). White on it reaches WCAG AA only as large text,
// so large buttons carry 20 px bold labels; smaller ones use the deeper primary-ink shade.
const primaryBySize: Record<ButtonSize, string> = {
  md: 'bg-primary-ink text-white shadow-sm hover:bg-primary-dark',
  lg: 'bg-primary text-white shadow-sm hover:bg-primary-dark',
};
const variantClasses: Record<Exclude<ButtonVariant, 'primary'>, string> = {
  // Hovered: the darker pink keeps the text at 4.7:1 on the soft background (the ink pink is 4.47:1 there).
  secondary: 'border border-primary-ink bg-white text-primary-ink hover:bg-primary-soft hover:text-primary-dark',
  plain: 'border border-line bg-white text-ink hover:bg-canvas',
  danger: 'bg-red-600 text-white hover:bg-red-700',
};
const sizeClasses: Record<ButtonSize, string> = {
  md: 'min-h-11 px-4 text-sm',
  lg: 'min-h-14 px-6 text-xl',
};

export function buttonClassName(
  options: { variant?: ButtonVariant; size?: ButtonSize; fullWidth?: boolean; className?: string } = {},
) {
  const { variant = 'primary', size = 'md', fullWidth = false, className = '' } = options;
  return [
    'relative inline-flex items-center justify-center gap-2 rounded-full font-bold transition-colors select-none',
    'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
    variant === 'primary' ? primaryBySize[size] : variantClasses[variant],
    sizeClasses[size],
    fullWidth ? 'w-full' : '',
    className,
  ].join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** While true the button is disabled and shows a spinner in place of its content. */
  loading?: boolean;
  fullWidth?: boolean;
  children: ReactNode;
}

/**
 * @example <Button type="submit" loading={navigation.state === 'submitting'} fullWidth>ログイン</Button>
 */
export function Button({
  variant,
  size,
  loading = false,
  fullWidth,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      data-loading={loading || undefined}
      className={buttonClassName({ variant, size, fullWidth, className })}
      {...rest}
    >
      {loading ? (
        <>
          <span className="invisible flex items-center gap-2" aria-hidden="true">
            {children}
          </span>
          <span className="absolute inset-0 flex items-center justify-center">
            <Spinner className="size-5" label="処理中" />
          </span>
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** A link that looks like a button. */
export function ButtonLink({
  variant,
  size,
  fullWidth,
  className,
  ...rest
}: LinkProps & { variant?: ButtonVariant; size?: ButtonSize; fullWidth?: boolean }) {
  return <Link className={buttonClassName({ variant, size, fullWidth, className })} {...rest} />;
}

/**
 * One submission at a time for a fetcher's form. React Router renders a fetcher's busy state in a
 * transition, so between a tap and the render that disables the button a second tap (a double tap, a
 * busy phone) submits the form again: the second claim interrupts the first and its answer
 * (「受け取り済みです」) replaces the first's. The guard closes on submit, synchronously, and opens after a
 * render that shows the fetcher idle with a new state or answer (an answer is a new object, so a render that
 * skipped the busy states opens it too). It lives beside the button so that it adds no script file to a page.
 * Proved by e2e/rewards-journey.test.ts (a second tap before the render).
 * @example
 * const fetcher = useFetcher<Answer>();
 * const onSubmit = useOneSubmission(fetcher.state, fetcher.data);
 * <fetcher.Form method="post" onSubmit={onSubmit}>…</fetcher.Form>
 */
export function useOneSubmission(state: 'idle' | 'submitting' | 'loading', answer: unknown) {
  const pending = useRef(false);
  useEffect(() => {
    if (state === 'idle') pending.current = false;
  }, [state, answer]);
  return (event: FormEvent) => {
    if (pending.current) event.preventDefault();
    pending.current = true;
  };
}
