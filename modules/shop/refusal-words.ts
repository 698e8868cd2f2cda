// The shop's refusal words: maintenance mode (docs/decisions/025) and its setting.
import { type RefusalEntry, type RefusalWords } from '#modules/kernel';
import { maintenanceEndText, type MaintenanceRefusalCode, type MaintenanceSettingRefusalCode } from './maintenance';

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
