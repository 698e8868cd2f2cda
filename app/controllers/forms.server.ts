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

/**
 * A form's number field as a number for a schema to check (which says whether it must be whole):
 * undefined when empty, NaN when it is not written in plain decimal (so `1e3`, `0x10` or `１０` are
 * refused, not reinterpreted).
 * @example numberField('10') === 10; numberField('1.5') === 1.5; numberField('') === undefined; Number.isNaN(numberField('1e3'))
 */
export function numberField(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  return /^-?\d{1,15}(\.\d{1,15})?$/.test(text) ? Number(text) : Number.NaN;
}
