// One zod schema per auth form: the form's hints, the action's checks and the error reply share it.
import { z } from 'zod';
import { checkPassword, maxLengthOf, PASSWORD_HARD_MAX_LENGTH, type PasswordPolicy } from './password-policy';

/** An email address as every form takes it (trimmed; the server lowercases it). */
export const emailSchema = z
  .string({ error: 'メールアドレスを入力してください。' })
  .trim()
  .min(1, 'メールアドレスを入力してください。')
  .max(254, 'メールアドレスが長すぎます。')
  .pipe(z.email({ error: 'メールアドレスの形式が正しくありません。' }));

/** Where to go afterwards; an unusable value is dropped (the member lands on /), never an error. */
const redirectField = z.string().max(2048).optional().catch(undefined);

export function signInSchema() {
  return z.object({
    email: emailSchema,
    password: z
      .string({ error: 'パスワードを入力してください。' })
      .min(1, 'パスワードを入力してください。')
      .max(256, 'パスワードが長すぎます。'),
    redirect: redirectField,
  });
}

/** The nickname rules from the settings: its length and the words it may not contain. */
export interface NicknameRules {
  maxLength: number;
  /** Compared after NFKC and lower-casing, so ＡＤＭＩＮ and admin are one word. */
  forbiddenWords: readonly string[];
}

/** The rules without settings (tests, the command line): 20 characters, no forbidden words. */
export const DEFAULT_NICKNAME_RULES: NicknameRules = { maxLength: 20, forbiddenWords: [] };

const folded = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

/**
 * ニックネーム: shown publicly (rankings, winners), so short, free of markup and control characters,
 * and free of the operator's forbidden words.
 * @example nicknameSchemaOf({ maxLength: 20, forbiddenWords: ['運営'] }).safeParse('運営スタッフ').success === false
 */
export function nicknameSchemaOf(rules: NicknameRules) {
  const words = rules.forbiddenWords.map(folded).filter(Boolean);
  return z
    .string({ error: 'ニックネームを入力してください。' })
    .trim()
    .min(1, 'ニックネームを入力してください。')
    .max(rules.maxLength, `ニックネームは${rules.maxLength}文字以内で入力してください。`)
    .refine((v) => !/[\u0000-\u001f\u007f<>]/.test(v), 'ニックネームに使えない文字が含まれています。')
    .refine((v) => {
      const name = folded(v);
      return !words.some((word) => name.includes(word));
    }, 'このニックネームは使用できません。別のニックネームを入力してください。');
}

/** The nickname with the default rules (20 characters). */
export const nicknameSchema = nicknameSchemaOf(DEFAULT_NICKNAME_RULES);

/**
 * A new password under the policy: refused when the policy is enforced and a rule is unmet, or
 * outside the library's limits; in mode warn the form shows what is missing and accepts it.
 */
export function newPasswordSchema(policy: PasswordPolicy) {
  return z
    .string({ error: 'パスワードを入力してください。' })
    .min(1, 'パスワードを入力してください。')
    .max(PASSWORD_HARD_MAX_LENGTH, `パスワードは${maxLengthOf(policy)}文字以内で入力してください。`)
    .superRefine((password, ctx) => {
      const check = checkPassword(policy, password);
      if (!check.acceptable)
        ctx.addIssue({ code: 'custom', message: check.message ?? 'パスワードが条件を満たしていません。' });
    });
}

export function signUpSchema(policy: PasswordPolicy, nickname: NicknameRules = DEFAULT_NICKNAME_RULES) {
  return z.object({
    name: nicknameSchemaOf(nickname),
    email: emailSchema,
    password: newPasswordSchema(policy),
    agreeToTerms: z.literal('on', { error: '利用規約とプライバシーポリシーへの同意が必要です。' }),
    redirect: redirectField,
  });
}

/** /auth/passwd and the email-link form: an address only. */
export function emailOnlySchema() {
  return z.object({ email: emailSchema, redirect: redirectField });
}

/** /auth/action?mode=resetPassword: the new password, typed twice. */
export function resetPasswordSchema(policy: PasswordPolicy) {
  return z
    .object({ password: newPasswordSchema(policy), confirm: z.string().max(PASSWORD_HARD_MAX_LENGTH) })
    .refine((v) => v.password === v.confirm, { path: ['confirm'], message: '確認用のパスワードが一致しません。' });
}

/** Changing the password on /mypage: the current one, then the new one twice. */
export function changePasswordSchema(policy: PasswordPolicy) {
  return z
    .object({
      currentPassword: z.string().min(1, '現在のパスワードを入力してください。').max(256),
      password: newPasswordSchema(policy),
      confirm: z.string().max(PASSWORD_HARD_MAX_LENGTH),
    })
    .refine((v) => v.password === v.confirm, { path: ['confirm'], message: '確認用のパスワードが一致しません。' });
}

const pad = (value: string, width: number) => value.trim().padStart(width, '0');

/**
 * 生年月日 (specification section 5): year, month and day are padded and must form a real date in
 * strict year-month-day form; a birthday in the future or before 1900 is refused. Answers YYYY-MM-DD.
 * @example birthdaySchema(new Date()).parse({ year: '2000', month: '2', day: '9' }) === '2000-02-09'
 */
export function birthdaySchema(today: Date) {
  return z
    .object({
      year: z.string().regex(/^\s*\d{4}\s*$/, '年を4桁で入力してください。'),
      month: z.string().regex(/^\s*\d{1,2}\s*$/, '月を選んでください。'),
      day: z.string().regex(/^\s*\d{1,2}\s*$/, '日を選んでください。'),
    })
    .transform((v, ctx) => {
      const text = `${pad(v.year, 4)}-${pad(v.month, 2)}-${pad(v.day, 2)}`;
      if (!isStrictDate(text)) {
        ctx.addIssue({ code: 'custom', message: '存在しない日付です。', path: ['day'] });
        return z.NEVER;
      }
      // Today in Japan (UTC+9, no daylight saving): a birthday may be today's date in Tokyo.
      const todayText = new Date(today.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
      if (text > todayText || text < '1900-01-01') {
        ctx.addIssue({ code: 'custom', message: '生年月日を正しく入力してください。', path: ['year'] });
        return z.NEVER;
      }
      return text;
    });
}

/** True when the text is YYYY-MM-DD and that day exists (not 2023-02-29). */
export function isStrictDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each field, for showing under the inputs. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}
