// What the identity pages read from the settings: the password policy and the nickname rules.
import type { ShopServices } from '#server/context';
import { passwordPolicyOf, type NicknameRules, type PasswordPolicy } from '#modules/identity';

/** The password policy the server enforces, as the forms show it. */
export const passwordPolicyFor = (services: Pick<ShopServices, 'config'>): PasswordPolicy =>
  passwordPolicyOf(services.config);

/** The nickname rules from the settings. */
export const nicknameRulesFor = (services: Pick<ShopServices, 'config'>): NicknameRules => ({
  maxLength: services.config.NICKNAME_MAX_LENGTH,
  forbiddenWords: services.config.NICKNAME_FORBIDDEN_WORDS,
});
