// The contact form (/contact): for visitors and members alike. A member finds their address filled in
// and may name one of their own recent orders, draws or shipping requests (checked again when posted).
// Abuse: every post counts against the client address before its body is read, inquiries count per
// email address, a honeypot field, and Turnstile for visitors when it is configured (docs/decisions/024).
// Images are sniffed, checked and re-encoded by the support module before anything is stored; the
// inquiry, its images and the acknowledgement mail are stored together or not at all.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import type { CaptchaWidget } from '~/components/Captcha';
import { captchaWidget } from '~/controllers/auth-call.server';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { supportRulesOf } from '#server/context';
import {
  CAPTCHA_FORM_FIELD,
  CLIENT_IP_HEADER,
  fieldErrorsOf,
  isPlaceholderEmail,
  takeRateLimit,
} from '#modules/identity';
import { TURNSTILE_TIMEOUT_MS, verifyTurnstile } from '#modules/identity/server';
import type { Refusal } from '#modules/kernel';
import {
  INQUIRY_CATEGORY_LABELS,
  INQUIRY_HONEYPOT_FIELD,
  INQUIRY_LIMITS,
  createInquiry,
  describeRelated,
  inquiryCategories,
  inquiryRelatedKinds,
  inquiryInputSchema,
  prepareInquiryImage,
  readInquiryReference,
  relatedChoicesOf,
  type PreparedImage,
  type RelatedChoice,
} from '#modules/support';

/** This page (the redirect after sending names it). */
export const CONTACT_PATH = '/contact';

/** The cookie that carries the reference number to the thank-you view (only this page reads it). */
const SENT_COOKIE = 'oripa_contact_sent';

/** The text fields a failed post hands back to the form (files are never echoed). */
export interface ContactValues {
  category: string;
  email: string;
  subject: string;
  message: string;
  related: string;
}

export interface ContactActionData {
  formError?: string;
  fieldErrors?: Partial<Record<keyof ContactValues | 'images', string>>;
  values?: ContactValues;
  captcha?: CaptchaWidget | null;
}

const refusalText = (refusal: Refusal<string>) => describeRefusal(refusal as Refusal<RefusalCode>);

/** Counts one event under `key` in the shared store (Redis or the database); the seconds to wait when over. */
async function overLimit(shop: ShopRequest, key: string, windowSeconds: number, max: number): Promise<number | null> {
  const { limiter, db } = shop.services;
  if (limiter) {
    const decision = await limiter.take(key, windowSeconds, max);
    return decision.allowed ? null : decision.retryAfterSeconds;
  }
  const answer = await takeRateLimit(db, { key: `oripa:${key}`, windowSeconds, max });
  return answer.allowed ? null : answer.retryAfterSeconds;
}

/** The captcha a post from this visitor must carry: Turnstile for visitors when configured, none for members. */
function captchaFor(shop: ShopRequest): CaptchaWidget | null {
  return shop.member ? null : captchaWidget(shop);
}

/**
 * The member's recent items for the form, and the one the link named (`?related=shipping_request:<id>`
 * from a shipping request's page) when it is older than the recent ten, so the form opened from an item
 * always carries it. Another member's id or a made-up one is simply not offered.
 */
async function relatedChoicesFor(shop: ShopRequest, memberId: string, named: string): Promise<RelatedChoice[]> {
  const choices = await relatedChoicesOf(shop.services.db, memberId);
  const [kind, id, ...rest] = named.split(':');
  if (!kind || !id || rest.length > 0 || choices.some((c) => c.value === named)) return choices;
  if (!(inquiryRelatedKinds as readonly string[]).includes(kind)) return choices;
  const found = await describeRelated(shop.services.db, memberId, { kind: kind as RelatedChoice['kind'], id });
  return found?.label ? [...choices, { kind: found.kind, id: found.id, value: named, label: found.label }] : choices;
}

export async function contactLoader(shop: ShopRequest, request: Request) {
  const url = new URL(request.url);
  const config = shop.services.config;
  const member = shop.member;
  const sentReference = url.searchParams.get('sent')
    ? readInquiryReference(
        (request.headers.get('cookie') ?? '').match(new RegExp(`(?:^|;\\s*)${SENT_COOKIE}=([^;]+)`))?.[1] ?? '',
      )
    : null;
  const category = url.searchParams.get('category') ?? '';
  const related = url.searchParams.get('related') ?? '';
  return {
    sent: url.searchParams.get('sent') ? { reference: sentReference } : null,
    signedIn: member !== null,
    values: {
      category: (inquiryCategories as readonly string[]).includes(category) ? category : '',
      email: member && !isPlaceholderEmail(member.email) ? member.email : '',
      subject: '',
      message: '',
      related,
    } satisfies ContactValues,
    categories: inquiryCategories.map((id) => ({ id, label: INQUIRY_CATEGORY_LABELS[id] })),
    related: member ? await relatedChoicesFor(shop, member.id, related) : [],
    limits: { ...INQUIRY_LIMITS, imageMaxBytes: config.CONTACT_IMAGE_MAX_BYTES },
    captcha: captchaFor(shop),
  };
}

const textOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

export async function contactAction(shop: ShopRequest, request: Request) {
  const { config, db } = shop.services;
  const member = shop.member;
  const captcha = captchaFor(shop);
  const address = request.headers.get(CLIENT_IP_HEADER) || 'unknown';

  // Every post counts before its body is read: a flood of large bodies stops here.
  const addressWait = await overLimit(
    shop,
    `contact:address:${address}`,
    3600,
    config.CONTACT_POSTS_PER_ADDRESS_PER_HOUR,
  );
  if (addressWait !== null) {
    const described = refusalText({
      ok: false,
      code: 'INQUIRY_RATE_LIMITED',
      details: { retryAfterSeconds: addressWait },
    });
    return data<ContactActionData>(
      { formError: described.message, captcha },
      { status: 429, headers: { 'Retry-After': String(addressWait) } },
    );
  }

  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<ContactActionData>({ formError: UNREADABLE_FORM_MESSAGE, captcha }, { status: 400 });
  }
  const values: ContactValues = {
    category: textOf(form, 'category'),
    email: textOf(form, 'email'),
    subject: textOf(form, 'subject'),
    message: textOf(form, 'message'),
    related: textOf(form, 'related'),
  };
  const refused = (refusal: Refusal<string>, field?: keyof ContactValues | 'images') => {
    const described = refusalText(refusal);
    const headers: Record<string, string> = { ...described.headers };
    return data<ContactActionData>(
      field
        ? { fieldErrors: { [field]: described.message }, values, captcha }
        : { formError: described.message, values, captcha },
      { status: described.status, headers },
    );
  };

  // Bots fill every field; people never see this one.
  if (textOf(form, INQUIRY_HONEYPOT_FIELD).trim() !== '') {
    shop.services.logger.info({ reqId: shop.requestId }, 'contact: honeypot filled');
    return refused({ ok: false, code: 'INQUIRY_SPAM', details: {} });
  }

  const parsed = inquiryInputSchema.safeParse(values);
  if (!parsed.success)
    return data<ContactActionData>(
      {
        fieldErrors: fieldErrorsOf(parsed.error) as ContactActionData['fieldErrors'],
        formError: '入力内容をご確認ください。',
        values,
        captcha,
      },
      { status: 400 },
    );
  if (parsed.data.related && !member)
    return refused({ ok: false, code: 'INQUIRY_RELATED_NOT_FOUND', details: {} }, 'related');

  const files = form.getAll('images').filter((f): f is File => typeof f !== 'string' && f.size > 0);
  if (files.length > INQUIRY_LIMITS.images)
    return refused({ ok: false, code: 'INQUIRY_IMAGE_TOO_MANY', details: { max: INQUIRY_LIMITS.images } }, 'images');
  // Sizes first (cheap), before any captcha call or decoding.
  const rules = supportRulesOf(shop.services);
  const oversize = files.findIndex((f) => f.size > rules.imageMaxBytes);
  if (oversize >= 0)
    return refused(
      { ok: false, code: 'INQUIRY_IMAGE_TOO_LARGE', details: { image: oversize + 1, maxBytes: rules.imageMaxBytes } },
      'images',
    );

  if (captcha && config.turnstile) {
    const token = textOf(form, CAPTCHA_FORM_FIELD).trim();
    if (!token) return refused({ ok: false, code: 'INQUIRY_CAPTCHA_REQUIRED', details: {} });
    const verification = await verifyTurnstile(token, address, {
      secretKey: config.turnstile.secretKey,
      verifyUrl: config.turnstile.verifyUrl,
      timeoutMs: TURNSTILE_TIMEOUT_MS,
    });
    if (!verification.success) {
      if (verification.errorCodes.includes('network-error'))
        shop.services.logger.error(
          { errorCodes: verification.errorCodes },
          'contact: Turnstile siteverify unreachable',
        );
      return refused({ ok: false, code: 'INQUIRY_CAPTCHA_INVALID', details: {} });
    }
  }

  // Inquiries per address written into the form: nobody mails a stranger's inbox full through us.
  const emailWait = await overLimit(
    shop,
    `contact:email:${parsed.data.email.toLowerCase()}`,
    86_400,
    config.CONTACT_INQUIRIES_PER_EMAIL_PER_DAY,
  );
  if (emailWait !== null)
    return refused({ ok: false, code: 'INQUIRY_RATE_LIMITED', details: { retryAfterSeconds: emailWait } });

  const images: PreparedImage[] = [];
  for (const [index, file] of files.entries()) {
    const prepared = await prepareInquiryImage(new Uint8Array(await file.arrayBuffer()), {
      maxBytes: rules.imageMaxBytes,
      index,
    });
    if (!prepared.ok) return refused(prepared, 'images');
    images.push(prepared.image);
  }

  const made = await createInquiry(db, rules, { input: parsed.data, memberId: member?.id ?? null, images });
  if (!made.ok) return refused(made, made.code === 'INQUIRY_RELATED_NOT_FOUND' ? 'related' : 'images');
  const secure = config.httpsOrigin ? '; Secure' : '';
  throw redirect(`${CONTACT_PATH}?sent=1`, {
    headers: {
      // Path=/: the page's scripts read its data from /contact.data, which a cookie of /contact would miss.
      'Set-Cookie': `${SENT_COOKIE}=${made.inquiry.reference}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax${secure}`,
    },
  });
}
