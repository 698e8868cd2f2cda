// The password policy (specification section 5): set by the operator in the settings, enforced by
// the server on every path that sets a password, published at GET /api/v1/password-policy, and shown
// live on every form that takes a new password. Pure: pages and the browser load it too.

/** The library's floor: no setting goes below it. */
export const PASSWORD_LIBRARY_MIN_LENGTH = 6;
/** The length a policy without a maximum still caps at (better-auth's own limit for hashing). */
export const PASSWORD_HARD_MAX_LENGTH = 128;
/** The only policy format this client understands. */
export const PASSWORD_POLICY_SCHEMA_VERSION = 1;

export type PasswordPolicyMode = 'off' | 'warn' | 'enforce';
export type PasswordRequirement = 'minLength' | 'maxLength' | 'lowercase' | 'uppercase' | 'numeric' | 'nonAlphanumeric';

/** The policy as published (JSON) and as the forms read it. */
export interface PasswordPolicy {
  schemaVersion: number;
  /** off: only the library's length limits; warn: the member is told, the password is accepted; enforce: refused. */
  mode: PasswordPolicyMode;
  minLength: number;
  /** null: no maximum of the shop's own (PASSWORD_HARD_MAX_LENGTH still applies). */
  maxLength: number | null;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumeric: boolean;
  requireNonAlphanumeric: boolean;
}

/** The settings the policy is built from (server/config.ts). */
export interface PasswordPolicySettings {
  PASSWORD_POLICY_MODE: PasswordPolicyMode;
  PASSWORD_MIN_LENGTH: number;
  PASSWORD_MAX_LENGTH?: number | undefined;
  PASSWORD_REQUIRE_LOWERCASE: boolean;
  PASSWORD_REQUIRE_UPPERCASE: boolean;
  PASSWORD_REQUIRE_NUMERIC: boolean;
  PASSWORD_REQUIRE_NON_ALPHANUMERIC: boolean;
}

/** @example passwordPolicyOf(config).minLength === 8 */
export function passwordPolicyOf(settings: PasswordPolicySettings): PasswordPolicy {
  return {
    schemaVersion: PASSWORD_POLICY_SCHEMA_VERSION,
    mode: settings.PASSWORD_POLICY_MODE,
    minLength: Math.max(PASSWORD_LIBRARY_MIN_LENGTH, settings.PASSWORD_MIN_LENGTH),
    maxLength: settings.PASSWORD_MAX_LENGTH ?? null,
    requireLowercase: settings.PASSWORD_REQUIRE_LOWERCASE,
    requireUppercase: settings.PASSWORD_REQUIRE_UPPERCASE,
    requireNumeric: settings.PASSWORD_REQUIRE_NUMERIC,
    requireNonAlphanumeric: settings.PASSWORD_REQUIRE_NON_ALPHANUMERIC,
  };
}

/** The most characters any policy allows. */
export const maxLengthOf = (policy: PasswordPolicy) => policy.maxLength ?? PASSWORD_HARD_MAX_LENGTH;

/** One rule of the policy, as the form lists it. */
export interface PasswordRule {
  requirement: PasswordRequirement;
  label: string;
  met: boolean;
}

/**
 * Every rule the policy sets, met or not, in the order the form shows them. With mode `off`, only
 * the length limits (the library's) are rules.
 * @example passwordRules(policy, 'abc').find((r) => r.requirement === 'minLength')?.met === false
 */
export function passwordRules(policy: PasswordPolicy, password: string): PasswordRule[] {
  const length = [...password].length;
  const minLength = policy.mode === 'off' ? PASSWORD_LIBRARY_MIN_LENGTH : policy.minLength;
  const maxLength = policy.mode === 'off' ? PASSWORD_HARD_MAX_LENGTH : maxLengthOf(policy);
  const rules: PasswordRule[] = [
    {
      requirement: 'minLength',
      label: policy.maxLength && policy.mode !== 'off' ? `${minLength}〜${maxLength}文字` : `${minLength}文字以上`,
      met: length >= minLength,
    },
  ];
  if (length > maxLength) rules.push({ requirement: 'maxLength', label: `${maxLength}文字以内`, met: false });
  if (policy.mode === 'off') return rules;
  if (policy.requireLowercase) rules.push({ requirement: 'lowercase', label: '英小文字', met: /[a-z]/.test(password) });
  if (policy.requireUppercase) rules.push({ requirement: 'uppercase', label: '英大文字', met: /[A-Z]/.test(password) });
  if (policy.requireNumeric) rules.push({ requirement: 'numeric', label: '数字', met: /[0-9]/.test(password) });
  if (policy.requireNonAlphanumeric)
    rules.push({ requirement: 'nonAlphanumeric', label: '記号', met: /[^A-Za-z0-9]/.test(password) });
  return rules;
}

/** The verdict on a new password. */
export interface PasswordCheck {
  /** The rules it does not meet. */
  unmet: PasswordRequirement[];
  /** false: the password must be refused (mode enforce, or the library's limits). */
  acceptable: boolean;
  /** A Japanese sentence naming what is missing, or null when every rule is met. */
  message: string | null;
}

/**
 * Checks a new password. The library's length limits always refuse; the shop's own rules refuse in
 * mode `enforce` and only warn in mode `warn`.
 * @example checkPassword({ ...policy, mode: 'enforce', requireNumeric: true }, 'password').acceptable === false
 */
export function checkPassword(policy: PasswordPolicy, password: string): PasswordCheck {
  const rules = passwordRules(policy, password);
  const unmet = rules.filter((r) => !r.met);
  const length = [...password].length;
  const outsideLibrary = length < PASSWORD_LIBRARY_MIN_LENGTH || length > PASSWORD_HARD_MAX_LENGTH;
  return {
    unmet: unmet.map((r) => r.requirement),
    acceptable: unmet.length === 0 || (policy.mode !== 'enforce' && !outsideLibrary),
    message: unmet.length ? `パスワードの条件を満たしていません（${unmet.map((r) => r.label).join('・')}）。` : null,
  };
}

/** The error code the specification names for a policy this client cannot read. */
export const UNSUPPORTED_POLICY_VERSION = 'auth/unsupported-password-policy-schema-version';

/** Thrown when a fetched policy is not one this client can apply. */
export class PasswordPolicyError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/**
 * Reads a policy fetched from GET /api/v1/password-policy: schema version 1 only (otherwise
 * `auth/unsupported-password-policy-schema-version`, as the specification says).
 * @example readPasswordPolicy(await (await fetch('/api/v1/password-policy')).json())
 */
export function readPasswordPolicy(json: unknown): PasswordPolicy {
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== PASSWORD_POLICY_SCHEMA_VERSION) throw new PasswordPolicyError(UNSUPPORTED_POLICY_VERSION);
  // Read by hand (no schema library): this file ships to the browser with the forms.
  const value = json as Record<string, unknown>;
  const flags = ['requireLowercase', 'requireUppercase', 'requireNumeric', 'requireNonAlphanumeric'] as const;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
  const wellFormed =
    (value.mode === 'off' || value.mode === 'warn' || value.mode === 'enforce') &&
    whole(value.minLength) &&
    value.minLength >= PASSWORD_LIBRARY_MIN_LENGTH &&
    (value.maxLength === null || whole(value.maxLength)) &&
    flags.every((flag) => typeof value[flag] === 'boolean');
  if (!wellFormed) throw new PasswordPolicyError('auth/internal-error');
  return {
    schemaVersion: PASSWORD_POLICY_SCHEMA_VERSION,
    mode: value.mode as PasswordPolicyMode,
    minLength: value.minLength as number,
    maxLength: value.maxLength as number | null,
    requireLowercase: value.requireLowercase as boolean,
    requireUppercase: value.requireUppercase as boolean,
    requireNumeric: value.requireNumeric as boolean,
    requireNonAlphanumeric: value.requireNonAlphanumeric as boolean,
  };
}
