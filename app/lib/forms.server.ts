// Reading a submitted form without ever turning a malformed body into a 500.
import { data } from 'react-router';

export const UNREADABLE_FORM_MESSAGE = '送信内容を読み取れませんでした。ページを再読み込みしてもう一度お試しください。';

/**
 * The form's text fields, or throws a 400 answer with a Japanese message when the body is not a form.
 * @example const form = await readFormFields(request)
 */
export async function readFormFields(request: Request): Promise<Record<string, string>> {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw data({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) if (typeof value === 'string') fields[name] = value;
  return fields;
}
