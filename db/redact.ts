// Redaction in SQL: a text column with every spelling of a deleted member's identifiers (the address,
// the number as typed and as stored, the nickname) replaced, without regard to case. For text the shop
// keeps after 退会 that others wrote (staff answers, notes, a provider's payload): docs/personal-data.md.
import { sql, type SQL, type AnyColumn } from 'drizzle-orm';

/** What replaces an erased value in text the shop keeps. */
export const ERASED_MARK = '〔退会により削除〕';

/** Shorter spellings are not redacted: one or two characters would scar unrelated words. */
const SHORTEST_SPELLING = 3;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The POSIX regular expression (for PostgreSQL's `~*` and regexp_replace) matching any of the spellings,
 * or null when none is long enough to redact.
 * @example spellingPattern(['a@example.jp', '090-1234-5678']) // 'a@example\\.jp|090-1234-5678'
 */
export function spellingPattern(spellings: readonly string[]): string | null {
  const usable = [...new Set(spellings.filter((s) => s.length >= SHORTEST_SPELLING))].sort(
    (a, b) => b.length - a.length,
  );
  return usable.length ? usable.map(escapeRegExp).join('|') : null;
}

/**
 * `column` with every spelling replaced by ERASED_MARK (case-insensitive); the column itself when
 * there is nothing to redact. Use in an UPDATE's SET, with `mentions` in its WHERE.
 * @example await tx.update(notes).set({ text: redactedText(notes.text, spellings) }).where(mentions(notes.text, spellings))
 */
export function redactedText(column: AnyColumn | SQL, spellings: readonly string[]): SQL {
  const pattern = spellingPattern(spellings);
  return pattern ? sql`regexp_replace(${column}, ${pattern}, ${ERASED_MARK}, 'gi')` : sql`${column}`;
}

/**
 * Whether `column` mentions any spelling (case-insensitive); false when there is nothing to redact.
 * @example .where(and(eq(t.memberId, id), mentions(t.body, spellings)))
 */
export function mentions(column: AnyColumn | SQL, spellings: readonly string[]): SQL {
  const pattern = spellingPattern(spellings);
  return pattern ? sql`coalesce(${column} ~* ${pattern}, false)` : sql`false`;
}

/**
 * A JSON value with the spellings redacted inside its string values, keys and structure untouched. In
 * JavaScript, not in SQL on the text form: there a spelling that is also JSON (a nickname `null` or
 * `true`, a number) would be replaced outside a string and break the document, and one that is also a
 * key (`status`) would rename it.
 * @example redactedJsonValue({ buyer: 'a@example.jp', paid: null }, ['a@example.jp', 'null']) // { buyer: '〔退会により削除〕', paid: null }
 */
export function redactedJsonValue(value: unknown, spellings: readonly string[]): unknown {
  const pattern = spellingPattern(spellings);
  if (!pattern) return value;
  const spelled = new RegExp(pattern, 'gi');
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(spelled, ERASED_MARK);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

/**
 * Whether a jsonb column mentions any spelling (on its text form: it may also answer yes for a key or a
 * literal, which redactedJsonValue then leaves as it is).
 * @example .where(jsonMentions(events.payload, spellings))
 */
export function jsonMentions(column: AnyColumn | SQL, spellings: readonly string[]): SQL {
  return mentions(
    sql`${column}::text`,
    spellings.map((s) => JSON.stringify(s).slice(1, -1)),
  );
}
