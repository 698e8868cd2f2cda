// Identity over the API: the password policy the sign-up, reset and change forms apply (specification
// section 5: clients fetch it, show it live and fetch it again on password-does-not-meet-requirements).
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { passwordPolicyOf, PASSWORD_POLICY_SCHEMA_VERSION } from '#modules/identity';

const passwordPolicySchema = apiSchema(
  'PasswordPolicy',
  z.object({
    schemaVersion: z.int().meta({
      description: `形式の版（現在 ${PASSWORD_POLICY_SCHEMA_VERSION}）。${PASSWORD_POLICY_SCHEMA_VERSION} 以外はこのクライアントでは扱えません（unsupported-password-policy-schema-version）。`,
    }),
    mode: z
      .enum(['off', 'warn', 'enforce'])
      .meta({ description: 'off: 長さの下限（6）のみ / warn: 条件を満たさなくても登録可（警告のみ） / enforce: 必須' }),
    minLength: z.int().min(6),
    maxLength: z.int().nullable().meta({ description: 'null: ショップとしての上限なし（128文字まで）' }),
    requireLowercase: z.boolean(),
    requireUppercase: z.boolean(),
    requireNumeric: z.boolean(),
    requireNonAlphanumeric: z.boolean(),
  }),
);

const getPasswordPolicy = defineOperation({
  operationId: 'getPasswordPolicy',
  method: 'get',
  path: '/password-policy',
  summary: 'パスワードの条件',
  description:
    '会員登録・再設定・変更で新しいパスワードに求める条件です。PASSWORD_DOES_NOT_MEET_REQUIREMENTS を受けたら取得し直してください。',
  tags: ['identity'],
  auth: 'none',
  responses: { 200: { description: 'パスワードの条件', schema: passwordPolicySchema } },
  handler: async ({ services }) => ({ status: 200, body: passwordPolicyOf(services.config) }),
});

export const identityOperations = [getPasswordPolicy];
