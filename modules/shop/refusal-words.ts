// The shop's refusal words: maintenance mode (docs/decisions/025) and its setting, and the closure (decision 085).
import { type RefusalEntry, type RefusalWords } from '#modules/kernel';
import { maintenanceEndText, type MaintenanceRefusalCode, type MaintenanceSettingRefusalCode } from './maintenance';
import { closureTimeText, type ClosureRefusalCode, type SalesStoppedRefusalCode } from './closure';

/** Retry-After of a maintenance refusal: until the planned end (at least a minute), else ten minutes. */
function maintenanceRetryAfterSeconds(details: Record<string, unknown>, now = Date.now()): number {
  const end = typeof details.endsAt === 'string' ? Date.parse(details.endsAt) : NaN;
  return Number.isNaN(end) ? 600 : Math.max(60, Math.ceil((end - now) / 1000));
}

// Maintenance mode (docs/decisions/025): every member write the shop refuses meanwhile, the draw and
// the checkout included. 503: the shop, not the request, is the reason; Retry-After says when to come back.
const MAINTENANCE: RefusalEntry = {
  status: 503,
  message: (d) =>
    `ただいまメンテナンス中のため、この操作はご利用いただけません。${
      typeof d.endsAt === 'string' ? `終了予定は${maintenanceEndText(d.endsAt)}（日本時間）です。` : ''
    }終了後にもう一度お試しください。`,
  headers: (d) => ({ 'Retry-After': String(maintenanceRetryAfterSeconds(d)) }),
};

export const MAINTENANCE_REFUSAL_WORDS: RefusalWords<MaintenanceRefusalCode | MaintenanceSettingRefusalCode> = {
  MAINTENANCE,
  MAINTENANCE_END_IN_PAST: {
    status: 422,
    message: '終了予定が過去の日時です。これから先の日時（日本時間）を入力するか、空欄にしてください。',
  },
};

const jst = (iso: unknown) => (typeof iso === 'string' ? closureTimeText(iso) : '');

// The closure (decision 085): a sale after the sales stop. 403: the shop no longer sells, whoever asks; the
// words say what the member can still do (資金決済法's refund, shipping their cards).
export const SALES_STOPPED_REFUSAL_WORDS: RefusalWords<SalesStoppedRefusalCode> = {
  SALES_STOPPED: {
    status: 403,
    message: (d) =>
      `当ショップは${typeof d.salesStopAt === 'string' ? `${jst(d.salesStopAt)}（日本時間）をもって` : ''}販売を終了しました。コインの購入・ガチャ・カードのコイン交換はご利用いただけません。${
        typeof d.refundDeadline === 'string'
          ? `未使用の有償コインの払戻しは${jst(d.refundDeadline)}（日本時間）までマイページで受け付けています。`
          : ''
      }保管中のカードは発送をお申し込みいただけます。`,
  },
};

export const CLOSURE_REFUSAL_WORDS: RefusalWords<ClosureRefusalCode> = {
  CLOSURE_ALREADY_ANNOUNCED: {
    status: 409,
    message: '閉店はすでに告知されています。内容を変えるには、販売停止の前に取り消してから告知し直してください。',
  },
  CLOSURE_REFUND_PERIOD_TOO_SHORT: {
    status: 422,
    message: (d) =>
      `払戻しの申出期間は、公告の日から${typeof d.days === 'number' ? d.days : 60}日以上が必要です（資金決済法 第20条）。申出期限は${jst(d.earliest)}（日本時間）以降にしてください。`,
  },
  CLOSURE_SALES_STOP_IN_PAST: {
    status: 422,
    message: '販売停止の日時が過去です。これから先の日時（日本時間）を入力するか、空欄（すぐに停止）にしてください。',
  },
  CLOSURE_DEADLINE_BEFORE_SALES_STOP: {
    status: 422,
    message: '払戻しの申出期限は、販売停止より後の日時にしてください。',
  },
  CLOSURE_NOT_FOUND: { status: 404, message: '告知中の閉店はありません。' },
  CLOSURE_SALES_ALREADY_STOPPED: {
    status: 409,
    message: (d) =>
      `販売はすでに停止しています（${jst(d.salesStopAt)}）。販売停止後の閉店は取り消せません。払戻しの手続きを続けてください。`,
  },
  CLOSURE_ADMIN_ONLY: {
    status: 403,
    message: '閉店の告知と取り消しは、管理者（admin）だけが行えます。',
  },
  CLOSURE_CONFIRMATION_MISSING: {
    status: 422,
    message: '確認のため「閉店する」と入力してください。',
  },
  REFUND_PERIOD_OVER: {
    status: 409,
    message: (d) => `払戻しの申出期限（${jst(d.refundDeadline)}）を過ぎたため、お申し込みいただけません。`,
  },
  REFUND_NOTHING_TO_REFUND: {
    status: 409,
    message: '払い戻せる有償コインの残高がありません（無償コインは払戻しの対象ではありません）。',
  },
  REFUND_ALREADY_PAID: {
    status: 409,
    message: (d) =>
      `この払戻しはすでに振込済みとして記録されています${typeof d.paidAt === 'string' ? `（${jst(d.paidAt)}）` : ''}。`,
  },
  REFUND_NOT_FOUND: { status: 404, message: '払戻しのお申し込みが見つかりません。' },
  REFUND_BEFORE_SALES_STOP: {
    status: 409,
    message: (d) =>
      `販売停止（${jst(d.salesStopAt)}）の前は払戻しを記録できません。残高が決まる販売停止の後に振り込んでください。`,
  },
  REFUND_AMOUNT_CHANGED: {
    status: 409,
    message: (d) =>
      `会員の有償コインの残高が確認したときと違います（いま ${typeof d.paid === 'number' ? d.paid.toLocaleString('ja-JP') : '?'}枚）。画面を再読み込みして、金額を確かめてから記録してください。`,
  },
};
