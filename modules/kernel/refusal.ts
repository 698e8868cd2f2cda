// The one shape of a domain refusal: modules return it (never throw it, never attach an HTTP status
// or Japanese text to it); each module words its codes in its refusal-words.ts, with a status and a
// message, and modules/refusals gathers those words for the edge (docs/decisions/064).

/**
 * A refusal: a stable English code and the facts a message may need (e.g. the balance).
 * @example const r: Refusal<'SOLD_OUT'> = { ok: false, code: 'SOLD_OUT', details: {} }
 */
export interface Refusal<C extends string = string> {
  readonly ok: false;
  readonly code: C;
  readonly details: Record<string, unknown>;
}

/** What a module function answers: its success (with `ok: true`) or one of its refusals. */
export type Outcome<T extends { ok: true }, C extends string> = T | Refusal<C>;

/**
 * Builds a refusal.
 * @example return refuse('NOT_ENOUGH_LOTS', { remaining: 3 })
 */
export function refuse<C extends string>(code: C, details: Record<string, unknown> = {}): Refusal<C> {
  return { ok: false, code, details };
}

/** Whether a value is a refusal (for code that receives either an answer or a refusal). */
export function isRefusal(value: unknown): value is Refusal {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.ok === false &&
    typeof v.code === 'string' &&
    /^[A-Z][A-Z0-9_]*$/.test(v.code) &&
    typeof v.details === 'object' &&
    v.details !== null
  );
}

/**
 * A refusal that has to unwind: thrown only where a refusal must roll back a transaction the caller
 * opened, or abort an operator command halfway (the pack lifecycle, a grant inside a purchase).
 * It carries the same Refusal, worded at the edge like a returned one; the Error message is English,
 * for logs.
 * @example throw new RefusalError(refuse('GACHA_NOT_FOUND', { gachaId }))
 */
export class RefusalError<C extends string = string> extends Error {
  readonly code: C;
  constructor(readonly refusal: Refusal<C>) {
    super(`refused: ${refusal.code} ${JSON.stringify(refusal.details)}`);
    this.name = 'RefusalError';
    this.code = refusal.code;
  }
}
