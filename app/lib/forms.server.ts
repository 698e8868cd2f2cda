// Reading a submitted form without ever turning a malformed body into a 500.

export const UNREADABLE_FORM_MESSAGE = '送信内容を読み取れませんでした。ページを再読み込みしてもう一度お試しください。';

/**
 * The form's text fields, or null when the body is not a readable form (the action then answers
 * 400 with UNREADABLE_FORM_MESSAGE, shown on the form itself).
 * @example const form = await readFormFields(request); if (!form) return data({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 })
 */
export async function readFormFields(request: Request): Promise<Record<string, string> | null> {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return null;
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) if (typeof value === 'string') fields[name] = value;
  return fields;
}
