// What a shipping request needs before it can be made — an address and a verified phone — met inside
// 発送を申し込む (/mypage/shipping/new) without leaving it (issue 29 item 5, decision 058): the address
// form and the SMS code steps open in a sheet, post to the page's own action, and come back to the page
// with the member's choice of cards kept (the choice travels in the forms' `keep` field and in the
// address). The same module functions, schemas, rate limits and captcha as 住所録 and 電話番号認証.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { describeRefusal } from '#modules/refusals';
import { JAPANESE_PARSE, fieldMessages } from '#modules/kernel';
import { addressInputSchema, createAddress, lookupPostalCode, postalFill } from '#modules/shipping';
import { memberPhoneNumber } from '#modules/identity/server';
import { valuesOf, type AddressActionData } from './addresses.server';
import { phoneCodeSteps } from './phone-number.server';
import { cookieHeaders } from './auth-call.server';
import type { PhoneFormState } from '~/components/PhoneCodeSteps';

export const NEW_SHIPPING_PATH = '/mypage/shipping/new';

/** The sheets the page can open. */
export type PrerequisiteSheet = 'address' | 'phone';
export const isPrerequisiteSheet = (value: string | null): value is PrerequisiteSheet =>
  value === 'address' || value === 'phone';

/** The intents of the sheets' forms (the address form's and PhoneCodeSteps'). */
const ADDRESS_INTENTS = new Set(['save', 'lookup']);
const PHONE_INTENTS = new Set(['phone-send', 'phone-verify']);
export const isPrerequisiteIntent = (intent: string | undefined) =>
  Boolean(intent && (ADDRESS_INTENTS.has(intent) || PHONE_INTENTS.has(intent)));

/** The page's address with the member's choice: the cards, the address, and what else is asked. */
export function choiceHref(chosen: readonly string[], addressId: string | null, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(chosen.map((id) => ['prize', id]));
  if (addressId) params.set('address', addressId);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `${NEW_SHIPPING_PATH}?${query}` : NEW_SHIPPING_PATH;
}

export interface Prerequisites {
  hasAddress: boolean;
  phoneVerified: boolean;
  /** A number to offer in the phone sheet: the usual address's phone, when the member has none verified. */
  phoneSuggestion: string | null;
}

/** What the member still needs before a request can be made. */
export async function prerequisitesOf(
  shop: ShopRequest,
  memberId: string,
  addresses: readonly { isDefault: boolean; phone: string }[],
): Promise<Prerequisites> {
  const phone = await memberPhoneNumber(shop.services.db, memberId);
  const usual = addresses.find((a) => a.isDefault) ?? addresses[0];
  return {
    hasAddress: addresses.length > 0,
    phoneVerified: phone.verified,
    phoneSuggestion: phone.verified ? null : (usual?.phone ?? null),
  };
}

/** What the sheets' forms answer when they stay open (a refusal, a look-up, the code step). */
export type PrerequisiteActionData =
  | { sheet: 'address'; keep: string[]; address: AddressActionData }
  | { sheet: 'phone'; keep: string[]; phone: PhoneFormState };

/**
 * The sheets' forms, posted to /mypage/shipping/new: an address saved (then the phone sheet if the phone
 * is not verified yet), the postal look-up without JavaScript, the SMS code sent and checked.
 * @example if (isPrerequisiteIntent(fields.intent)) return prerequisiteAction(shop, request, member.id, fields, chosen)
 */
export async function prerequisiteAction(
  shop: ShopRequest,
  request: Request,
  memberId: string,
  form: Record<string, string>,
  keep: string[],
) {
  const { db, config } = shop.services;
  const addressAnswer = (address: AddressActionData, status = 200) =>
    data<PrerequisiteActionData>({ sheet: 'address', keep, address }, { status });

  if (form.intent === 'lookup') {
    const values = valuesOf(form);
    const found = lookupPostalCode(values.postalCode);
    if (!found.ok) return addressAnswer({ values, fieldErrors: { postalCode: describeRefusal(found).message } }, 400);
    const fill = postalFill(found.places);
    return addressAnswer({
      values: { ...values, prefecture: fill.prefecture, city: fill.city ?? values.city, town: fill.town },
      towns: fill.towns.length ? fill.towns : undefined,
      lookupMessage: fill.message,
    });
  }

  if (form.intent === 'save') {
    const values = valuesOf(form);
    const parsed = addressInputSchema.safeParse(values, JAPANESE_PARSE);
    if (!parsed.success) return addressAnswer({ values, fieldErrors: fieldMessages(parsed.error, 'form') }, 400);
    const saved = await createAddress(db, config.addressKeyring, memberId, parsed.data);
    if (!saved.ok) {
      const refused = describeRefusal(saved);
      return addressAnswer({ values, formError: refused.message }, refused.status);
    }
    // The next thing missing opens by itself: the phone, when it is not verified yet.
    const phone = await memberPhoneNumber(db, memberId);
    throw redirect(
      choiceHref(keep, saved.address.id, phone.verified ? { done: 'address' } : { sheet: 'phone', done: 'address' }),
    );
  }

  // The SMS code steps, as on 電話番号認証 (the same limits, cooldown and captcha).
  const answered = await phoneCodeSteps(shop, request, form, {
    verifyBody: { updatePhoneNumber: true },
    onVerified: (result) =>
      redirect(choiceHref(keep, form.address || null, { done: 'phone' }), {
        headers: cookieHeaders(result.setCookies),
      }),
  });
  if (answered instanceof Response) return answered;
  return data<PrerequisiteActionData>(
    { sheet: 'phone', keep, phone: answered.data.phone },
    { status: answered.init?.status ?? 200, headers: { 'Cache-Control': 'no-store' } },
  );
}
