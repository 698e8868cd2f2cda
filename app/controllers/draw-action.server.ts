// The pack page's draw as a form action: the same request schema as the API's createDraw, the same
// draw use case (server/draw.ts) and the same refusal words (modules/refusals), then the result page.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { notFound } from '~/lib/not-found';
import { drawRequestSchema } from '#modules/draw';
import { getGachaDetail } from '#modules/gacha';
import { idempotencyKeySchema } from '#modules/idempotency';
import { describeRefusal } from '#modules/refusals';
import { drawForMember } from '#server/context';
import { parseWithMessage } from '#modules/kernel';
import { numberField, readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { maintenanceRefusal, refusalInit } from './maintenance.server';

/** The API's draw request with the form's own Idempotency-Key field. */
const drawFormSchema = drawRequestSchema.extend({ idempotencyKey: idempotencyKeySchema });

export type DrawActionData = { error: { code: string; message: string; details?: Record<string, unknown> } };

/**
 * Draws from the pack page's form: the member, the form (drawRequestSchema, as the API reads it),
 * the pack at this address, then the draw; a refusal reads as modules/refusals words it.
 * @example export async function action({ request, params, context }) { return drawAction(context.get(shopRequestContext), request, params) }
 */
export async function drawAction(shop: ShopRequest, request: Request, params: { genreId: string; gachaId: string }) {
  const path = new URL(request.url).pathname;
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  const closed = await maintenanceRefusal(shop);
  if (closed)
    return data<DrawActionData>({ error: { code: closed.code, message: closed.message } }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form)
    return data<DrawActionData>({ error: { code: 'INVALID_FORM', message: UNREADABLE_FORM_MESSAGE } }, { status: 400 });
  // A form sends text: the count is read as a number here, then checked by the API's own schema.
  const parsed = parseWithMessage(drawFormSchema, {
    count: numberField(form.count),
    idempotencyKey: form.idempotencyKey,
  });
  if (!parsed.ok)
    return data<DrawActionData>({ error: { code: 'VALIDATION_FAILED', message: parsed.message } }, { status: 400 });
  const pack = await getGachaDetail(shop.services.db, params.gachaId);
  if (!pack || pack.genreId !== params.genreId) throw notFound(path);
  // The one draw use case the API's createDraw also calls (server/draw.ts).
  const outcome = await drawForMember(
    shop.services,
    { memberId: shop.member.id },
    {
      gachaId: pack.id,
      count: parsed.data.count,
      idempotencyKey: `web:${parsed.data.idempotencyKey}`,
      minRank: pack.minRank || null,
      waitingRoomCap: pack.waitingRoom ? pack.perMemberLimit : null,
    },
  );
  if (!outcome.ok) {
    const refused = describeRefusal(outcome);
    return data<DrawActionData>(
      {
        error: {
          code: outcome.code,
          message: refused.message,
          details: { ...outcome.details, count: parsed.data.count },
        },
      },
      refusalInit(refused),
    );
  }
  throw redirect(`/gacha/${pack.genreId}/${pack.id}/result/${outcome.result.drawId}?reveal=1`);
}
