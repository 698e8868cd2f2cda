// /admin/maintenance's server side: the switch as stored (read fresh, not from the cache), and its
// three intents — review (the confirmation before switching on), on and off — through the admin
// module's audited setMaintenanceAsOperator; then this instance's cache is refreshed at once.
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { parseWithMessage } from '#modules/kernel';
import type { Refusal } from '#modules/kernel';
import { setMaintenanceAsOperator } from '#modules/admin';
import {
  DEFAULT_MAINTENANCE_MESSAGE,
  MAINTENANCE_MESSAGE_MAX_LENGTH,
  maintenanceEndText,
  maintenanceSettingRefusal,
  maintenanceSettingSchema,
  readMaintenance,
  type MaintenanceState,
} from '#modules/shop';

/** The switch as the page shows it (times as ISO for the form, and as members read them). */
export interface MaintenanceView {
  on: boolean;
  message: string;
  customMessage: string | null;
  endsAt: string | null;
  endsAtText: string | null;
  /** The planned end for the form's datetime-local field, in Japan time: `2027-01-05T15:00`. */
  endsAtLocal: string | null;
  changedBy: string | null;
  changedAtText: string | null;
}

/** The form's fields as typed. */
interface MaintenanceTyped {
  message: string;
  endsAt: string;
}

/** The confirmation before switching on: what members will be shown, and the fields to send again. */
export interface MaintenanceReview {
  message: string;
  endsAtText: string | null;
  fields: MaintenanceTyped;
}

/**
 * Done or refused (with the fields as typed, kept on a refusal), or, before switching on, the review
 * the page asks to confirm (neither done nor refused yet).
 */
export type MaintenanceActionData =
  | AdminActionResult<{ typed: MaintenanceTyped; review: undefined }>
  | { review: MaintenanceReview; ok?: undefined; error?: undefined; typed?: undefined };

const localJst = (date: Date) => new Date(date.getTime() + 9 * 3600_000).toISOString().slice(0, 16);

function viewOf(state: MaintenanceState): MaintenanceView {
  return {
    on: state.on,
    message: state.message,
    customMessage: state.customMessage,
    endsAt: state.endsAt ? state.endsAt.toISOString() : null,
    endsAtText: state.endsAt ? maintenanceEndText(state.endsAt) : null,
    endsAtLocal: state.endsAt ? localJst(state.endsAt) : null,
    changedBy: state.changedBy,
    changedAtText: state.changedAt ? maintenanceEndText(state.changedAt) : null,
  };
}

export async function maintenancePageLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'shop:write');
  return {
    state: viewOf(await readMaintenance(shop.services.db)),
    defaultMessage: DEFAULT_MAINTENANCE_MESSAGE,
    messageMaxLength: MAINTENANCE_MESSAGE_MAX_LENGTH,
  };
}

export async function maintenancePageAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'shop:write');
  const form = await readFormFields(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  const fields = { message: form.message ?? '', endsAt: form.endsAt ?? '' };
  const intent = form.intent;
  if (intent !== 'review' && intent !== 'on' && intent !== 'off')
    return actionRefused('操作を読み取れませんでした。ページを再読み込みしてください。');

  const parsed = parseWithMessage(maintenanceSettingSchema, {
    on: intent !== 'off',
    message: intent === 'off' ? '' : fields.message,
    endsAt: intent === 'off' ? '' : fields.endsAt,
  });
  if (!parsed.ok) return actionRefused<{ typed: MaintenanceTyped }>(parsed.message, { typed: fields });
  const setting = parsed.data;
  if (intent === 'review') {
    // Nothing is written yet: the same checks as switching on, then the page asks to confirm.
    const invalid = maintenanceSettingRefusal(setting, new Date());
    if (invalid) return refused(invalid, fields);
    const review: MaintenanceReview = {
      message: setting.message ?? DEFAULT_MAINTENANCE_MESSAGE,
      endsAtText: setting.endsAt ? maintenanceEndText(setting.endsAt) : null,
      fields,
    };
    return { review } satisfies MaintenanceActionData;
  }
  // 'on' comes only from the confirmation's button, which carries this field.
  if (intent === 'on' && form.confirmed !== 'yes')
    return actionRefused<{ typed: MaintenanceTyped }>('確認画面から開始してください。', { typed: fields });
  const outcome = await setMaintenanceAsOperator(shop.services.db, operator, setting);
  if (!outcome.ok) return refused(outcome, fields);
  // This instance sees the switch at once; the others within MAINTENANCE_CACHE_SECONDS.
  await shop.services.maintenance.refresh();
  return actionOk(
    outcome.value.on
      ? 'メンテナンスを開始しました。会員のガチャ・購入・交換・発送のお申し込みなどを受け付けていません。'
      : 'メンテナンスを終了しました。会員はいつもどおりご利用いただけます。',
  );
}

function refused(refusal: Refusal<string>, typed: MaintenanceTyped) {
  const { status, message } = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused<{ typed: MaintenanceTyped }>(message, { typed, status });
}
