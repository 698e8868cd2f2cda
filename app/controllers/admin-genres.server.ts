// /admin/genres: the genre tabs (ポケモン, ワンピース…): name, old ids that redirect to the genre, icon,
// order, shown or hidden; add a genre. Saved through the admin module's audited saveGenreAsOperator.
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { saveGenreAsOperator } from '#modules/admin';
import { genreFormSchema, listAllGenres } from '#modules/gacha';
import { jstLocalInput, windowPhase, windowText, type Refusal } from '#modules/kernel';

/** The genres page's answer (decision 067); `form` is the genre's id, or 'new'. */
export type GenreActionData = AdminActionResult;

export async function genresLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'packs:write');
  const now = new Date();
  return {
    genres: (await listAllGenres(shop.services.db)).map((g) => ({
      ...g,
      startsAt: jstLocalInput(g.startsAt),
      endsAt: jstLocalInput(g.endsAt),
      windowText: windowText(g),
      phase: windowPhase(g, now),
    })),
  };
}

export async function genresAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'packs:write');
  const form = await readFormFields(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const which = form.intent === 'create' ? 'new' : (form.id ?? '');
  if (form.intent !== 'create' && form.intent !== 'save')
    return actionRefused('操作を選び直してください。', { form: which });
  const parsed = genreFormSchema.safeParse(form);
  if (!parsed.success)
    return actionRefused(parsed.error.issues[0]?.message ?? '入力を確認してください。', { form: which });
  const exists = (await listAllGenres(shop.services.db)).some((g) => g.id === parsed.data.id);
  if (form.intent === 'create' && exists)
    return actionRefused(`ID「${parsed.data.id}」のジャンルはすでにあります。`, { form: which, status: 409 });
  if (form.intent === 'save' && !exists)
    return actionRefused('このジャンルは見つかりません。', { form: which, status: 404 });
  const done = await saveGenreAsOperator(shop.services.db, operator, parsed.data);
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    return actionRefused(described.message, { form: which, status: described.status });
  }
  return actionOk(
    `「${parsed.data.name}」を${form.intent === 'create' ? '追加' : '保存'}しました${parsed.data.visible ? '' : '（非表示）'}${parsed.data.startsAt || parsed.data.endsAt ? `（表示期間 ${windowText(parsed.data)}）` : ''}。`,
    { form: which },
  );
}
