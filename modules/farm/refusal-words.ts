// The farm's refusal words, the members' and the operators': status and Japanese message of each code.
import { digits, jstText, type RefusalWords } from '#modules/kernel';
import type { FarmRefusalCode } from './play';
import type { FarmAdminRefusalCode } from './operators';

/** 480 → "8時間", 90 → "1時間30分", 45 → "45分". */
const intervalText = (minutes: unknown) => {
  const m = Number(minutes ?? 480);
  const hours = Math.floor(m / 60);
  return hours === 0 ? `${m}分` : m % 60 === 0 ? `${hours}時間` : `${hours}時間${m % 60}分`;
};

/** "あと3時間05分" from an instant in a refusal's details (the server's clock at the answer). */
const waitText = (at: unknown) => {
  if (typeof at !== 'string') return '';
  const minutes = Math.max(1, Math.ceil((Date.parse(at) - Date.now()) / 60_000));
  return minutes >= 60
    ? `あと${Math.floor(minutes / 60)}時間${String(minutes % 60).padStart(2, '0')}分`
    : `あと${minutes}分`;
};

// The farm (docs/decisions/044): the server decides every time; the messages say when to come back.
export const FARM_REFUSAL_WORDS: RefusalWords<FarmRefusalCode> = {
  FARM_PAUSED: { status: 503, message: 'ファームは現在メンテナンス中です。しばらくしてからお試しください。' },
  FARM_NOT_AVAILABLE: { status: 403, message: 'このアカウントではファームを利用できません。' },
  FARM_PLOT_LOCKED: { status: 409, message: 'この畑はまだ解放されていません。レベルを上げると使えるようになります。' },
  FARM_PLOT_NOT_EMPTY: { status: 409, message: 'この畑にはすでに作物が植えられています。' },
  FARM_SEED_UNKNOWN: { status: 404, message: 'その種は現在植えられません。別の種を選んでください。' },
  FARM_SEED_LOCKED: {
    status: 409,
    message: (d) => `この種はレベル${digits(d.unlockLevel)}から植えられます。`,
  },
  FARM_NOTHING_TO_WATER: { status: 409, message: '水やりできる作物がありません（空き、または収穫できる状態です）。' },
  FARM_WATER_TOO_SOON: {
    status: 409,
    message: (d) =>
      `この畑の水やりは${intervalText(d.cooldownMinutes)}に1回までです。${typeof d.nextWaterAt === 'string' ? `${jstText(d.nextWaterAt)}（${waitText(d.nextWaterAt)}）から水やりできます。` : ''}`,
  },
  FARM_NOT_RIPE: {
    status: 409,
    message: (d) =>
      `まだ収穫できません。${typeof d.readyAt === 'string' ? `${jstText(d.readyAt)}（${waitText(d.readyAt)}）に収穫できます。` : ''}`,
  },
  FARM_NOTHING_TO_HARVEST: { status: 409, message: 'この畑には収穫できる作物がありません。' },
  FARM_WITHERED: { status: 409, message: '作物が枯れてしまいました。片付けると、また植えられます。' },
  FARM_NOTHING_TO_CLEAR: { status: 409, message: '片付ける作物がありません。' },
  FARM_NOT_FRIENDS: { status: 404, message: 'フレンドが見つかりません。' },
  FARM_TOO_FAST: {
    status: 429,
    message: '操作が速すぎます。少し待ってからもう一度お試しください。',
    headers: (d) => ({ 'Retry-After': String(Number(d.retryAfterSeconds ?? 60)) }),
  },
  FARM_FRIEND_ALREADY_WATERED: {
    status: 409,
    message: (d) =>
      `このフレンドの畑には今日すでに水やりしました。${typeof d.nextDayAt === 'string' ? `${jstText(d.nextDayAt)}（日本時間0時）からまた水やりできます。` : ''}`,
  },
};

// The farm's operators (/admin/farm, decision 044): a planted seed stays, for the history and the plots.
export const FARM_ADMIN_REFUSAL_WORDS: RefusalWords<FarmAdminRefusalCode> = {
  FARM_SEED_NOT_FOUND: { status: 404, message: 'その種は見つかりません。一覧を読み込み直してください。' },
  FARM_SEED_TAKEN: {
    status: 409,
    message: (d) => `ID「${String(d.seedId)}」の種はすでにあります。別のIDにしてください。`,
  },
  FARM_SEED_PLANTED: {
    status: 409,
    message: (d) =>
      `「${String(d.name ?? d.seedId)}」はすでに会員が植えたことがあるため削除できません。植えられないようにするには「停止」にしてください。`,
  },
  FARM_INPUT_INVALID: { status: 400, message: (d) => String(d.message ?? '入力を確認してください。') },
  FARM_ECONOMY_RANGE: {
    status: 400,
    message: (d) =>
      `期間は実在する日付で、開始日から終了日まで${digits(d.maxDays)}日以内で指定してください（終了日は開始日以降）。`,
  },
};
