// One zod schema per auth form: the form's hints, the action's checks and the error reply share it.
import { z } from 'zod';

export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
}

const email = z
  .string({ error: 'メールアドレスを入力してください。' })
  .trim()
  .min(1, 'メールアドレスを入力してください。')
  .max(254, 'メールアドレスが長すぎます。')
  .pipe(z.email({ error: 'メールアドレスの形式が正しくありません。' }));

export function signInSchema() {
  return z.object({
    email,
    password: z
      .string({ error: 'パスワードを入力してください。' })
      .min(1, 'パスワードを入力してください。')
      .max(256, 'パスワードが長すぎます。'),
    /** Where to go afterwards; an unusable value is dropped (the member lands on /), never an error. */
    redirect: z.string().max(2048).optional().catch(undefined),
  });
}

/** ニックネーム: shown publicly (rankings), so short and free of markup and control characters. */
export const nicknameSchema = z
  .string({ error: 'ニックネームを入力してください。' })
  .trim()
  .min(1, 'ニックネームを入力してください。')
  .max(20, 'ニックネームは20文字以内で入力してください。')
  .refine((v) => !/[\u0000-\u001f\u007f<>]/.test(v), 'ニックネームに使えない文字が含まれています。');

export function signUpSchema(policy: PasswordPolicy) {
  return z.object({
    name: nicknameSchema,
    email,
    password: z
      .string({ error: 'パスワードを入力してください。' })
      .min(policy.minLength, `パスワードは${policy.minLength}文字以上で入力してください。`)
      .max(policy.maxLength, `パスワードは${policy.maxLength}文字以内で入力してください。`),
    agreeToTerms: z.literal('on', { error: '利用規約とプライバシーポリシーへの同意が必要です。' }),
    /** Where to go afterwards; an unusable value is dropped (the member lands on /), never an error. */
    redirect: z.string().max(2048).optional().catch(undefined),
  });
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
