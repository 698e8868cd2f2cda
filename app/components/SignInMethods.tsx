// Other sign-in methods (LINE, Google, phone, …) appear here as each is configured; none yet.
export interface SignInMethod {
  id: 'line' | 'google' | 'phone' | 'facebook' | 'github' | 'twitter' | 'email-link';
  label: string;
  href: string;
}

/** Configured methods; the identity issue fills this from the server's settings. */
export const CONFIGURED_SIGN_IN_METHODS: SignInMethod[] = [];

export function SignInMethods({
  mode,
  methods = CONFIGURED_SIGN_IN_METHODS,
}: {
  mode: 'sign-in' | 'sign-up';
  methods?: SignInMethod[];
}) {
  if (methods.length === 0) return null;
  return (
    <section
      aria-label={mode === 'sign-in' ? 'ほかの方法でログイン' : 'ほかの方法で登録'}
      className="flex flex-col gap-2"
    >
      <p className="text-center text-xs text-muted">または</p>
      {methods.map((method) => (
        <a
          key={method.id}
          href={method.href}
          className="flex min-h-12 items-center justify-center rounded-full border border-line bg-white font-bold"
        >
          {method.label}
        </a>
      ))}
    </section>
  );
}
