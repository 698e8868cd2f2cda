// SQL statements this process sends to PostgreSQL (every node-postgres Client#query), for statement budgets
// (tests/http/page-statements.test.ts, tests/http/member-shell.test.ts) and bench/ssr's statements per request.
import pg from 'pg';

export interface StatementCounter {
  /** Every statement's text since the last reset (while counting). */
  readonly texts: string[];
  /** Statements counted so far (only while `counting`). */
  readonly count: number;
  counting: boolean;
  reset(): void;
  /** Puts node-postgres' own query back. */
  restore(): void;
}

/**
 * Wraps node-postgres' Client#query in this process until `restore()`. `onStatement` sees each one.
 * @example const sql = countStatements(); sql.counting = true; await fetch(url); sql.counting = false; sql.texts.length
 */
export function countStatements(onStatement?: (text: string) => void): StatementCounter {
  const original = pg.Client.prototype.query;
  const counter = {
    texts: [] as string[],
    get count() {
      return counter.texts.length;
    },
    counting: true,
    reset() {
      counter.texts = [];
    },
    restore() {
      pg.Client.prototype.query = original;
    },
  };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (counter.counting) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : (first?.text ?? '?');
      counter.texts.push(text);
      onStatement?.(text);
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  return counter;
}
