// The shape of a refusal's words (docs/decisions/064): each module words its own codes in its
// refusal-words.ts with these types; modules/refusals gathers them for the API and the pages alike.

export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

export interface RefusalEntry {
  status: RefusalStatus;
  /** Japanese; a function when the message names a fact from the refusal's details. */
  message: string | ((details: Record<string, unknown>) => string);
  /** Headers the API adds to the answer (e.g. Retry-After for a busy draw); a function when they name a fact. */
  headers?: Readonly<Record<string, string>> | ((details: Record<string, unknown>) => Readonly<Record<string, string>>);
}

/** One module's codes, each with its entry: the mapped type makes a missing code a type error. */
export type RefusalWords<C extends string> = { readonly [K in C]: RefusalEntry };

/** A count in Japanese digits grouping: 12,345. */
export const digits = (v: unknown) => Number(v ?? 0).toLocaleString('ja-JP');

/** A size in the words of the form: 5MB, 800KB. */
export const megabytes = (bytes: unknown) => {
  const value = Number(bytes ?? 0);
  return value >= 1_000_000 ? `${Math.floor(value / 100_000) / 10}MB` : `${Math.floor(value / 1000)}KB`;
};

/**
 * Codes several modules answer with the same words: the sign-in every member action needs, and a
 * reused request key (the idempotency keys' and the draw's own, which may not call the idempotency module).
 */
export const COMMON_REFUSAL_WORDS: RefusalWords<'UNAUTHENTICATED' | 'IDEMPOTENCY_KEY_REUSED'> = {
  UNAUTHENTICATED: { status: 401, message: 'ログインしてください。' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    message: '同じリクエストキーが別の内容で使われています。新しいキーでやり直してください。',
  },
};
