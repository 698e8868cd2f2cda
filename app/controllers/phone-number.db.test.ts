// The phone pages' actions, through callAuth and better-auth's real handler: /mypage/settings/phonenumber
// (send → code from the captured SMS → verified; the cooldown's seconds; wrong, spent and expired codes in
// Japanese; another member's number; removing) and the phone sign-in of /auth/sign_in.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { RouterContextProvider } from 'react-router';
import { createApiTestServices, signUpTestMember } from '#server/api/v1/testing';
import type { ShopServices } from '#server/services';
import { shopRequestContext, type ShopRequest } from '#server/context';
import { action as signInAction } from '~/routes/auth/sign-in';
import { PHONE_SETTINGS_PATH, phoneSettingsAction, phoneSettingsLoader } from './phone-number.server';
import { capturingMessenger, createShopAuth } from '#modules/identity/server';
import { PHONE_NUMBER_MESSAGES } from '#modules/identity';
import type { PhoneFormState } from '~/components/PhoneCodeSteps';
import { accounts, users, verifications } from '#db/schema';

let services: ShopServices;
let close: () => Promise<void>;
const messenger = capturingMessenger();
let clock = Date.now();

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('phone_pages'));
  services.auth = createShopAuth({
    db: services.db,
    config: services.config,
    logger: services.logger,
    messenger,
    now: () => new Date(clock),
  });
});
afterAll(async () => {
  await close?.();
});

let address = 0;
type Member = Awaited<ReturnType<typeof signUpTestMember>>;
const shopFor = (member: Member | null): ShopRequest => ({
  requestId: 'test',
  nonce: 'n',
  member: member ? ({ id: member.id, role: 'user' } as ShopRequest['member']) : null,
  services,
});
function post(path: string, fields: Record<string, string>, member: Member | null) {
  const headers = new Headers({ 'x-shop-client-ip': `10.1.${++address % 250}.1` });
  if (member) headers.set('cookie', member.cookie);
  return new Request(`http://shop.test${path}`, { method: 'POST', headers, body: new URLSearchParams(fields) });
}

/** What an action answered: a page state and its status, or a redirect. */
function answered(result: unknown): { status: number; phone: PhoneFormState } {
  if (result instanceof Response) throw new Error(`redirected to ${result.headers.get('location')}`);
  const { data, init } = result as { data: { phone: PhoneFormState }; init: { status: number } };
  return { status: init.status, phone: data.phone };
}
const settings = async (member: Member, fields: Record<string, string>) =>
  phoneSettingsAction(shopFor(member), post(PHONE_SETTINGS_PATH, fields, member));
const signIn = async (fields: Record<string, string>) => {
  const context = new RouterContextProvider();
  context.set(shopRequestContext, shopFor(null));
  return signInAction({ request: post('/auth/sign_in', fields, null), params: {}, context } as never);
};

let sequence = 0;
/** A fresh 090 number as a member types it, and its E.164 form. */
function freshNumber() {
  sequence += 1;
  const digits = String(20_000_000 + ((Date.now() + sequence * 104_729) % 79_999_999));
  return { typed: `090-${digits.slice(0, 4)}-${digits.slice(4, 8)}`, e164: `+8190${digits.slice(0, 8)}` };
}
const lastCodeTo = (e164: string) =>
  messenger.sent.filter((message) => message.channel === 'sms' && message.to === e164).at(-1)?.vars.code;
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

/** Adds `number` to `member` through the page. */
async function addNumber(member: Member, number: { typed: string; e164: string }) {
  answered(await settings(member, { intent: 'phone-send', phoneNumber: number.typed }));
  const done = await settings(member, {
    intent: 'phone-verify',
    phoneNumber: number.e164,
    code: lastCodeTo(number.e164)!,
  });
  expect((done as Response).headers.get('location')).toBe(`${PHONE_SETTINGS_PATH}?done=verified`);
}

describe('/mypage/settings/phonenumber', () => {
  it('full-width digits in → a code by SMS → the code → the number is the member’s, shown masked', async () => {
    const member = await signUpTestMember(services);
    const number = freshNumber();
    const fullWidth = number.typed.replace(/[0-9-]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const sent = answered(await settings(member, { intent: 'phone-send', phoneNumber: fullWidth }));
    expect(sent).toMatchObject({
      status: 200,
      phone: { step: 'code', phoneNumber: number.e164, shownNumber: number.typed, cooldownSeconds: 60 },
    });
    const code = lastCodeTo(number.e164)!;
    expect(code).toMatch(/^\d{6}$/);

    const verified = await settings(member, { intent: 'phone-verify', phoneNumber: number.e164, code });
    expect(verified).toBeInstanceOf(Response);
    expect((verified as Response).headers.get('location')).toBe(`${PHONE_SETTINGS_PATH}?done=verified`);
    const page = await phoneSettingsLoader(
      shopFor(member),
      new Request(`http://shop.test${PHONE_SETTINGS_PATH}?done=verified`),
    );
    expect(page).toEqual({
      current: { masked: `090-****-${number.typed.slice(-4)}`, verified: true },
      canRemove: true,
      notice: '電話番号を認証しました。',
    });
  });

  it('refuses a landline and a malformed number in Japanese, keeping what was typed', async () => {
    const member = await signUpTestMember(services);
    expect(answered(await settings(member, { intent: 'phone-send', phoneNumber: '03-1234-5678' }))).toEqual({
      status: 400,
      phone: { step: 'number', typed: '03-1234-5678', fieldErrors: { phoneNumber: PHONE_NUMBER_MESSAGES.notMobile } },
    });
    expect(answered(await settings(member, { intent: 'phone-send', phoneNumber: '090-12' })).phone.fieldErrors).toEqual(
      {
        phoneNumber: PHONE_NUMBER_MESSAGES.invalid,
      },
    );
  });

  it('an early resend is refused with the seconds left (no JavaScript needed); after 60 s it goes out', async () => {
    const member = await signUpTestMember(services);
    const number = freshNumber();
    answered(await settings(member, { intent: 'phone-send', phoneNumber: number.typed }));
    clock += 20_000;
    const early = answered(await settings(member, { intent: 'phone-send', phoneNumber: number.e164 }));
    expect(early).toMatchObject({
      status: 429,
      phone: {
        step: 'code',
        phoneNumber: number.e164,
        cooldownSeconds: 40,
        formError: 'あと40秒で認証コードを再送信できます。',
      },
    });
    clock += 40_000;
    expect(answered(await settings(member, { intent: 'phone-send', phoneNumber: number.e164 })).status).toBe(200);
  });

  it('a wrong code says the tries left; the fifth wrong one voids the code; even the right one then fails', async () => {
    const member = await signUpTestMember(services);
    const number = freshNumber();
    answered(await settings(member, { intent: 'phone-send', phoneNumber: number.typed }));
    const code = lastCodeTo(number.e164)!;
    const messages: (string | undefined)[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = answered(
        await settings(member, { intent: 'phone-verify', phoneNumber: number.e164, code: wrong(code) }),
      );
      expect(result.status).toBe(400);
      messages.push(result.phone.fieldErrors?.code);
    }
    const voided = '認証コードの入力回数が上限に達したため、このコードは無効になりました。もう一度送信してください。';
    expect(messages).toEqual([
      '認証コードが正しくありません（残り4回）',
      '認証コードが正しくありません（残り3回）',
      '認証コードが正しくありません（残り2回）',
      '認証コードが正しくありません（残り1回）',
      voided,
    ]);
    const sixth = answered(await settings(member, { intent: 'phone-verify', phoneNumber: number.e164, code }));
    expect(sixth).toMatchObject({ status: 403, phone: { step: 'code', fieldErrors: { code: voided } } });
  });

  it('a code that is not 6 digits never reaches better-auth; an expired one asks for a new one', async () => {
    const member = await signUpTestMember(services);
    const number = freshNumber();
    answered(await settings(member, { intent: 'phone-send', phoneNumber: number.typed }));
    const short = answered(await settings(member, { intent: 'phone-verify', phoneNumber: number.e164, code: '123' }));
    expect(short).toMatchObject({
      status: 400,
      phone: { fieldErrors: { code: '認証コードは6桁の数字で入力してください。' } },
    });
    await services.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `phone-number-otp-${number.e164}`));
    const expired = answered(
      await settings(member, { intent: 'phone-verify', phoneNumber: number.e164, code: lastCodeTo(number.e164)! }),
    );
    expect(expired.phone.fieldErrors?.code).toBe('認証コードの有効期限が切れました。もう一度送信してください。');
  });

  it("another member's verified number is refused without naming them", async () => {
    const a = await signUpTestMember(services);
    const b = await signUpTestMember(services);
    const number = freshNumber();
    await addNumber(a, number);
    clock += 61_000;
    answered(await settings(b, { intent: 'phone-send', phoneNumber: number.typed }));
    const taken = answered(
      await settings(b, { intent: 'phone-verify', phoneNumber: number.e164, code: lastCodeTo(number.e164)! }),
    );
    expect(taken).toEqual({
      status: 409,
      phone: { step: 'number', formError: 'この電話番号は別のアカウントで認証済みのため登録できません。' },
    });
  });

  it('removes the number when the member can still sign in with a password, and refuses otherwise', async () => {
    const member = await signUpTestMember(services);
    await addNumber(member, freshNumber());
    const removed = await settings(member, { intent: 'phone-remove' });
    expect((removed as Response).headers.get('location')).toBe(`${PHONE_SETTINGS_PATH}?done=removed`);
    const page = await phoneSettingsLoader(shopFor(member), new Request(`http://shop.test${PHONE_SETTINGS_PATH}`));
    expect(page.current).toBeNull();

    const phoneOnly = await signUpTestMember(services);
    await addNumber(phoneOnly, freshNumber());
    await services.db.delete(accounts).where(eq(accounts.userId, phoneOnly.id));
    const refused = answered(await settings(phoneOnly, { intent: 'phone-remove' }));
    expect(refused.status).toBe(400);
    expect(refused.phone.formError).toContain('ほかのログイン方法がないため');
    const [row] = await services.db.select({ phone: users.phoneNumber }).from(users).where(eq(users.id, phoneOnly.id));
    expect(row!.phone).not.toBeNull();
  });
});

describe('/auth/sign_in with a phone number', () => {
  it('a verified number → code → signed in, on to the redirect', async () => {
    const member = await signUpTestMember(services);
    const number = freshNumber();
    await addNumber(member, number);
    clock += 61_000;
    const sent = answered(await signIn({ intent: 'phone-send', phoneNumber: number.typed, redirect: '/shop' }));
    expect(sent).toMatchObject({ status: 200, phone: { step: 'code', phoneNumber: number.e164 } });
    const signedIn = await signIn({
      intent: 'phone-verify',
      phoneNumber: number.e164,
      code: lastCodeTo(number.e164)!,
      redirect: '/shop',
    });
    expect(signedIn).toBeInstanceOf(Response);
    const response = signedIn as Response;
    expect(response.headers.get('location')).toBe('/shop');
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!)
      .find((pair) => pair.includes('session_token='))!;
    const session = await services.auth.api.getSession({ headers: new Headers({ cookie }) });
    expect(session?.user.id).toBe(member.id);
  });

  it('an unknown number reads exactly what a known one reads, and no SMS goes out', async () => {
    const member = await signUpTestMember(services);
    const known = freshNumber();
    await addNumber(member, known);
    clock += 61_000;
    const unknown = freshNumber();
    const before = messenger.sent.length;
    const toKnown = answered(await signIn({ intent: 'phone-send', phoneNumber: known.typed }));
    const toUnknown = answered(await signIn({ intent: 'phone-send', phoneNumber: unknown.typed }));
    const withoutNumber = ({ phoneNumber: _n, shownNumber: _s, ...rest }: PhoneFormState) => rest;
    expect(toUnknown.status).toBe(toKnown.status);
    expect(withoutNumber(toUnknown.phone)).toEqual(withoutNumber(toKnown.phone));
    expect(toUnknown.phone.notice).toContain('認証コードを送信しました');
    expect(messenger.sent.slice(before).map((message) => message.to)).toEqual([known.e164]);
    const wrongKnown = answered(await signIn({ intent: 'phone-verify', phoneNumber: known.e164, code: '000000' }));
    const wrongUnknown = answered(await signIn({ intent: 'phone-verify', phoneNumber: unknown.e164, code: '000000' }));
    expect(wrongUnknown).toEqual({
      ...wrongKnown,
      phone: { ...wrongKnown.phone, phoneNumber: unknown.e164, shownNumber: unknown.typed },
    });
  });

  it('a redirect to another site lands on / instead', async () => {
    const member = await signUpTestMember(services);
    const number = freshNumber();
    await addNumber(member, number);
    clock += 61_000;
    answered(await signIn({ intent: 'phone-send', phoneNumber: number.e164 }));
    const signedIn = await signIn({
      intent: 'phone-verify',
      phoneNumber: number.e164,
      code: lastCodeTo(number.e164)!,
      redirect: '//evil.example/',
    });
    expect((signedIn as Response).headers.get('location')).toBe('/');
  });
});
