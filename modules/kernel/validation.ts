// Japanese messages for zod issues, one rule for the API (server/api/v1) and the pages' actions, so
// a forged form and an API call with the same bad input read the same message.
import type { z } from 'zod';

/** The member-facing Japanese message for one zod issue (a schema's own message wins over this). */
export function japaneseIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return '入力してください。';
      if (issue.expected === 'int') return '整数で指定してください。';
      if (issue.expected === 'number' || issue.expected === 'bigint') return '数値で指定してください。';
      if (issue.expected === 'string') return '文字で入力してください。';
      if (issue.expected === 'boolean') return 'true か false で指定してください。';
      if (issue.expected === 'array') return '一覧の形で指定してください。';
      if (issue.expected === 'object') return '項目の組で指定してください。';
      return '形式が正しくありません。';
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `${String(issue.values[0])} を指定してください。`
        : `${issue.values.map(String).join('、')} のいずれかを指定してください。`;
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string')
        return minimum <= 1 ? '入力してください。' : `${minimum}文字以上で入力してください。`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${minimum}件以上指定してください。`;
      return issue.inclusive === false
        ? `${minimum}より大きい値を指定してください。`
        : `${minimum}以上で指定してください。`;
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return `${maximum}文字以内で入力してください。`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${maximum}件以内で指定してください。`;
      return issue.inclusive === false
        ? `${maximum}より小さい値を指定してください。`
        : `${maximum}以下で指定してください。`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return 'メールアドレスの形式が正しくありません。';
      if (issue.format === 'datetime') return '日時の形式が正しくありません（例: 2025-01-31T09:00:00+09:00）。';
      if (issue.format === 'date') return '日付の形式が正しくありません（例: 2025-01-31）。';
      if (issue.format === 'url') return 'URLの形式が正しくありません。';
      if (issue.format === 'uuid') return 'IDの形式が正しくありません。';
      return '形式が正しくありません。';
    case 'not_multiple_of':
      return `${String(issue.divisor)}の倍数で指定してください。`;
    case 'unrecognized_keys':
      return `指定できない項目があります: ${issue.keys.join('、')}`;
    default:
      return '入力内容が正しくありません。';
  }
}

/** zod's per-parse error map: `schema.safeParse(value, JAPANESE_PARSE)`. */
export const JAPANESE_PARSE = { error: (issue: z.core.$ZodRawIssue) => japaneseIssueMessage(issue) };

/**
 * One message per field, keyed by the dotted path (`items.0.quantity`); an issue about the whole
 * value is keyed by `root` (for example 'body').
 * @example fieldMessages(result.error, 'body') // { limit: '100以下で指定してください。' }
 */
export function fieldMessages(error: z.ZodError, root: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : root;
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Parses with Japanese messages: the data, or the first message (a page shows one line per form).
 * @example const parsed = parseWithMessage(drawRequestSchema, { count: Number(form.count) }); if (!parsed.ok) return data({ message: parsed.message }, { status: 400 })
 */
export function parseWithMessage<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.output<S> } | { ok: false; message: string; fields: Record<string, string> } {
  const result = schema.safeParse(value, JAPANESE_PARSE);
  if (result.success) return { ok: true, data: result.data };
  const fields = fieldMessages(result.error, 'root');
  return { ok: false, message: result.error.issues[0]?.message ?? '入力内容が正しくありません。', fields };
}
