// /admin/banners' server side: the home banners (list, create, edit, order, on/off, schedule, art).
// Every change goes through the admin module's audited actions with 'content:write'. An uploaded
// image is checked and re-encoded (sharp) and written by its hash to the media store (media/banners,
// decision 071) before the transaction; a refused save leaves at most an unused object, which the daily
// clean-up takes once nothing names it, never a banner without its art. A store that fails refuses with 503.
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { mediaStoreOf } from '#server/context';
import { moveBannerAsOperator, saveBannerAsOperator, setBannerActiveAsOperator } from '#modules/admin';
import {
  BANNER_IMAGE_HEIGHT,
  BANNER_IMAGE_MAX_BYTES,
  BANNER_IMAGE_WIDTH,
  bannerFormSchema,
  bannerShown,
  listAllBanners,
  prepareBannerImage,
  writeBannerImage,
} from '#modules/content';
import { isMediaStoreUnavailable, jstLocalInput, refuse, windowPhase, windowText, type Refusal } from '#modules/kernel';

/** The banners page's answer (decision 067); `form` is the banner's uid, or 'new'. */
export type BannerActionData = AdminActionResult;

export async function bannersLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'content:write');
  const now = new Date();
  const banners = await listAllBanners(shop.services.db);
  return {
    banners: banners.map((b) => ({
      uid: b.uid,
      title: b.title,
      alt: b.alt,
      image: b.image,
      link: b.link,
      period: b.period ?? '',
      order: b.order,
      active: b.active,
      startsAt: jstLocalInput(b.startsAt),
      endsAt: jstLocalInput(b.endsAt),
      windowText: windowText(b),
      phase: windowPhase(b, now),
      shown: bannerShown(b, now),
    })),
    image: {
      maxMegabytes: Math.floor(BANNER_IMAGE_MAX_BYTES / 1_000_000),
      width: BANNER_IMAGE_WIDTH,
      height: BANNER_IMAGE_HEIGHT,
    },
  };
}

const refused = (refusal: Refusal<string>, form: string) => {
  const described = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused(described.message, { form, status: described.status });
};

export async function bannersAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'content:write');
  let body: FormData;
  try {
    body = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of body) if (typeof value === 'string') fields[name] = value;
  const intent = fields.intent;
  const uid = fields.uid ?? '';
  const which = intent === 'create' ? 'new' : uid;
  const { db } = shop.services;

  if (intent === 'activate' || intent === 'deactivate') {
    const done = await setBannerActiveAsOperator(db, operator, uid, intent === 'activate');
    if (!done.ok) return refused(done, which);
    return actionOk(`「${done.value.title}」を${intent === 'activate' ? '公開' : '非公開に'}しました。`, {
      form: which,
    });
  }
  if (intent === 'up' || intent === 'down') {
    const done = await moveBannerAsOperator(db, operator, uid, intent);
    if (!done.ok) return refused(done, which);
    return actionOk('表示順を変更しました。', { form: which });
  }
  if (intent !== 'create' && intent !== 'save') return actionRefused('操作を選び直してください。', { form: which });

  const parsed = bannerFormSchema.safeParse(fields);
  if (!parsed.success)
    return actionRefused(parsed.error.issues[0]?.message ?? '入力を確認してください。', { form: which });
  const file = body.get('image');
  let image: string | null = null;
  if (file && typeof file !== 'string' && file.size > 0) {
    // The size first (cheap), before anything decodes it.
    if (file.size > BANNER_IMAGE_MAX_BYTES)
      return refused(
        { ok: false, code: 'BANNER_IMAGE_TOO_LARGE', details: { maxBytes: BANNER_IMAGE_MAX_BYTES } },
        which,
      );
    const prepared = await prepareBannerImage(new Uint8Array(await file.arrayBuffer()));
    if (!prepared.ok) return refused(prepared, which);
    try {
      image = await writeBannerImage(mediaStoreOf(shop.services), prepared.image);
    } catch (error) {
      if (!isMediaStoreUnavailable(error)) throw error; // logged by the store (server/media/store.ts)
      return refused(refuse('MEDIA_STORE_UNAVAILABLE'), which);
    }
  }
  const done = await saveBannerAsOperator(db, operator, {
    uid: intent === 'create' ? null : uid,
    form: parsed.data,
    image,
  });
  if (!done.ok) return refused(done, which);
  const shownNow = bannerShown(done.value, new Date());
  return actionOk(
    `「${done.value.title}」を${intent === 'create' ? '追加' : '保存'}しました${shownNow ? '（トップに表示中）' : done.value.active ? `（表示期間 ${windowText(done.value)}）` : '（非公開）'}。`,
    { form: which },
  );
}
