// The one shape every admin page's action answers with (docs/decisions/067): done, with the words to
// show (`ok`), or refused, with the words to show (`error`) and, for a form with fields, each field's
// words (`fields`). `form` names which form on the page asked, so the answer shows beside that form
// only. A page may add its own extra keys (the desk's CSV problems, the pack editor's typed values).
// `<ActionAnswer>` (app/components/admin/ActionAnswer.tsx) shows it.
import { data } from 'react-router';

/** What an admin action answers: exactly one of `ok` and `error`, plus the page's own extras. */
export type AdminActionResult<Extra extends object = object> =
  | ({ ok: string; error?: undefined; form?: string; fields?: undefined } & Partial<Extra>)
  | ({ error: string; ok?: undefined; form?: string; fields?: Record<string, string> } & Partial<Extra>);

/**
 * The action did what was asked: its words, for the form that asked.
 * @example return actionOk('メモを追加しました。', { form: 'note' });
 */
export function actionOk<Extra extends object = object>(message: string, more?: { form?: string } & Partial<Extra>) {
  return { ...more, ok: message } as AdminActionResult<Extra>;
}

/**
 * The action refused: its words (and each field's), answered with an error status (400 unless told).
 * @example return actionRefused('返金の理由を500文字以内で入力してください。', { form: 'refund' });
 */
export function actionRefused<Extra extends object = object>(
  message: string,
  more: { form?: string; fields?: Record<string, string>; status?: number } & Partial<Extra> = {},
) {
  const { status = 400, ...rest } = more;
  return data<AdminActionResult<Extra>>({ ...rest, error: message } as AdminActionResult<Extra>, { status });
}
