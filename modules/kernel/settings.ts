// Settings declared where they are used (decision 065): each module (and each server concern) declares
// the environment variables it reads as a zod shape, with the words of the generated reference
// (docs/settings.md) beside it; server/config.ts composes every declaration and validates once at start.
import { z } from 'zod';

/** What the reference says about one setting; the default and the allowed values come from its schema. */
export interface SettingDoc {
  /** What it does, in the operator's words. */
  readonly meaning: string;
  /** The default when the schema's own default says too little (e.g. "generated once into DATA_DIR/…"). */
  readonly default?: string;
  /** The allowed values when the schema cannot say them (a list's format, a JSON shape). */
  readonly allowed?: string;
  /** Never shown in a configuration error (key material). */
  readonly secret?: true;
}

/** What the composition knows once every value is read, for rules that depend on the shop's address. */
export interface SettingsContext {
  /** PUBLIC_ORIGIN without its trailing slash, or http://localhost:$PORT. */
  readonly publicOrigin: string;
  readonly httpsOrigin: boolean;
  /** PAYMENT_SANDBOX resolved (payments' paymentSandboxOf). */
  readonly paymentSandbox: boolean;
}

/** One concern's settings: its schema, the reference's words for each, and the rules between them. */
export interface SettingsDeclaration<Shape extends z.ZodRawShape> {
  /** The heading of this concern in docs/settings.md. */
  readonly title: string;
  readonly shape: Shape;
  readonly docs: { readonly [K in keyof Shape]: SettingDoc };
  /**
   * Rules between settings, checked after every value is read: one line `NAME: what is wrong` per
   * problem (the start stops with them all).
   */
  readonly problems?: (values: z.output<z.ZodObject<Shape>>, context: SettingsContext) => string[];
}

/**
 * Declares a concern's settings (the type checks that every setting has its words).
 * @example export const shopSettings = declareSettings({ title: 'Maintenance', shape: {...}, docs: {...} })
 */
export function declareSettings<Shape extends z.ZodRawShape>(
  declaration: SettingsDeclaration<Shape>,
): SettingsDeclaration<Shape> {
  return declaration;
}

/** A yes/no setting: true, false, 1, 0, yes or no. */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * A comma-separated list of whole numbers from 0 to `max` (at most `maxEntries`); "0" alone is the empty list.
 * @example coinList('X', 100, 5).parse('1, 2') // [1, 2]
 */
export function coinList(name: string, max: number, maxEntries: number) {
  return z.string().transform((text, context) => {
    if (text.trim() === '0') return [] as number[];
    const entries = text.split(',').map((entry) => entry.trim());
    for (const entry of entries)
      if (!/^\d{1,13}$/.test(entry) || Number(entry) > max)
        context.addIssue({ code: 'custom', message: `${entry || '(empty)'} is not a whole number from 0 to ${max}` });
    if (entries.length > maxEntries)
      context.addIssue({ code: 'custom', message: `at most ${maxEntries} entries in ${name}` });
    return entries.map(Number);
  });
}

/**
 * Comma-separated words (trimmed, empty ones dropped), with a default list.
 * @example wordList('a,b').parse(' c , d') // ['c', 'd']
 */
export function wordList(defaults: string, maxLength?: number) {
  return (maxLength === undefined ? z.string() : z.string().max(maxLength)).default(defaults).transform((text) =>
    text
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean),
  );
}

/** http://localhost, 127.0.0.1 or [::1]: a stand-in on this machine may be named by http. */
export function isLoopbackHost(hostname: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}
