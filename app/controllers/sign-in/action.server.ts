// /auth/sign_in's action: one page, several forms told apart by `intent`, each answered by its own
// module here (password, email link, the code step, phone, social).
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { emailLinkSignInAction } from './email-link.server';
import { passwordSignInAction, type PasswordSignInData } from './password.server';
import { phoneSignInAction } from './phone.server';
import { secondStepAction } from './second-factor.server';
import { socialSignInAction } from './social.server';

/**
 * Hands the posted form to the module of its intent; a form without one is the password form.
 * @example export const action = ({ request, context }) => signInPageAction(context.get(shopRequestContext), request)
 */
export async function signInPageAction(shop: ShopRequest, request: Request) {
  const form = await readFormFields(request);
  if (!form) return data<PasswordSignInData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  if (form.intent === 'email-link') return emailLinkSignInAction(shop, request, form);
  if (form.intent === 'second-factor') return secondStepAction(shop, request, form);
  if (form.intent?.startsWith('phone-')) return phoneSignInAction(shop, request, form);
  if (form.intent === 'social') return socialSignInAction(shop, request, form);
  return passwordSignInAction(shop, request, form);
}
