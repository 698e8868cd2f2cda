// What a trace says of a database statement (decision 072): its kind and the table or function it is
// about, read from the statement's text. Never the text itself, and never its values: a raw SQL
// fragment may carry a literal, and a span leaves the shop for the tracing backend.

/** A statement's kind (`SELECT`, `INSERT`, …) and, when it names one, its table or function. */
export interface StatementSummary {
  operation: string;
  target?: string;
}

/** Keywords after which a statement names its table, by kind. */
const TARGET_AFTER: Readonly<Record<string, RegExp>> = {
  SELECT: /\bfrom\s+("?[A-Za-z_][\w.]*"?)/i,
  INSERT: /\binto\s+("?[A-Za-z_][\w.]*"?)/i,
  UPDATE: /^\s*update\s+("?[A-Za-z_][\w.]*"?)/i,
  DELETE: /\bfrom\s+("?[A-Za-z_][\w.]*"?)/i,
};

/** A SELECT of one function call (`select draw_lots(…)`): the function is what it is about. */
const SELECTED_FUNCTION = /^\s*select\s+("?[A-Za-z_][\w.]*"?)\s*\(/i;

/** Calls that wrap a value rather than name what a statement is about. */
const WRAPPERS = new Set(['count', 'coalesce', 'max', 'min', 'sum', 'exists', 'json_build_object', 'row_to_json']);

/**
 * @example statementSummary('select "id" from "gachas" where "id" = $1') // { operation: 'SELECT', target: 'gachas' }
 * @example statementSummary('select draw_lots($1, $2)') // { operation: 'SELECT', target: 'draw_lots' }
 */
export function statementSummary(text: string): StatementSummary {
  const keyword = /^\s*([A-Za-z]{1,16})\b/.exec(text)?.[1]?.toUpperCase();
  if (!keyword) return { operation: 'SQL' };
  const called = keyword === 'SELECT' ? SELECTED_FUNCTION.exec(text)?.[1] : undefined;
  const named =
    called && !WRAPPERS.has(unquoted(called).toLowerCase()) ? called : TARGET_AFTER[keyword]?.exec(text)?.[1];
  return named ? { operation: keyword, target: unquoted(named).slice(0, 64) } : { operation: keyword };
}

const unquoted = (name: string) => name.replaceAll('"', '');
