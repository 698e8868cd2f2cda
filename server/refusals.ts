// The one catalogue of domain refusals at the edge: every code a module can return, mapped to the
// HTTP status and the Japanese message the API and the pages both show (docs/api.md's status rules).
import { jstText, type Refusal } from '#modules/kernel';
import type {
  ConversionUndoRefusalCode,
  DrawRefusalCode,
  DrawLookupRefusalCode,
  PrizeChoiceRefusalCode,
} from '#modules/draw';
import type { GachaLookupRefusalCode, GenreRefusalCode, PackAdminRefusalCode, StockRefusalCode } from '#modules/gacha';
import type { IdempotencyRefusalCode } from '#modules/idempotency';
import type { AccountDeletionRefusalCode, LineLinkRefusalCode, StaffAccessRefusalCode } from '#modules/identity/server';
import type { WalletRefusalCode } from '#modules/wallet';
import {
  PERMISSION_LABELS,
  type AdminPermission,
  type AdminRefusalCode,
  type MailSendRefusalCode,
  type MemberConsoleRefusalCode,
} from '#modules/admin';
import { maintenanceEndText, type MaintenanceRefusalCode, type MaintenanceSettingRefusalCode } from '#modules/shop';
import {
  SHIPPING_STATUS_LABELS,
  SHIPPING_TRANSITIONS,
  type AddressRefusalCode,
  type ShippingRefusalCode,
  type ShippingAction,
  type ShippingStatus,
} from '#modules/shipping';
import {
  FIRST_PURCHASE_ONLY_REASON,
  PAYMENT_METHOD_INFO,
  isPaymentMethod,
  ORDER_STATUS_LABELS,
  reviewReasonText,
  yen,
  type OrderStatus,
  type PurchaseRefusalCode,
} from '#modules/payments';
import { INQUIRY_LIMITS, type InquiryImageRefusalCode, type InquiryRefusalCode } from '#modules/support';
import type { BannerRefusalCode, ContentRefusalCode } from '#modules/content';
import { SIGNAL_STATUS_LABELS, type RiskRefusalCode, type SignalStatus } from '#modules/risk';
import type { PromoAdminRefusalCode, PromoRefusalCode } from '#modules/promo';
import { rankName } from '#modules/progression';
import type { LoginBonusRefusalCode } from '#modules/bonus';
import type { MailRefusalCode } from '#modules/mailbox';
import type { InvitationRefusalCode } from '#modules/invitation';
import { exclusionLastDay, type LimitsRefusalCode } from '#modules/limits';
import type { FarmAdminRefusalCode, FarmRefusalCode } from '#modules/farm';
import type { FriendRefusalCode } from '#modules/friends';

export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

export interface RefusalEntry {
  status: RefusalStatus;
  /** Japanese; a function when the message names a fact from the refusal's details. */
  message: string | ((details: Record<string, unknown>) => string);
  /** Headers the API adds to the answer (e.g. Retry-After for a busy draw); a function when they name a fact. */
  headers?: Readonly<Record<string, string>> | ((details: Record<string, unknown>) => Readonly<Record<string, string>>);
}

/** One module's codes, each with its entry: the mapped type makes a missing code a type error. */
type Section<C extends string> = { readonly [K in C]: RefusalEntry };

/** A count in Japanese digits grouping: 12,345. */
const n = (v: unknown) => Number(v ?? 0).toLocaleString('ja-JP');

// A look-up names no id (the member asked for it); the operator's command names the one it could not find.
const GACHA_NOT_FOUND: RefusalEntry = {
  status: 404,
  message: (d) => (d.gachaId ? `ガチャ ${String(d.gachaId)} がありません。` : 'ガチャが見つかりません。'),
};
const GENRE_NOT_FOUND: RefusalEntry = {
  status: 404,
  message: (d) => (d.genreId ? `ジャンル ${String(d.genreId)} がありません。` : 'ジャンルが見つかりません。'),
};
const IDEMPOTENCY_KEY_REUSED: RefusalEntry = {
  status: 409,
  message: '同じリクエストキーが別の内容で使われています。新しいキーでやり直してください。',
};

// Draws, the wallet's spend and shipping fees alike.
const INSUFFICIENT_COINS: RefusalEntry = {
  status: 422,
  message: (d) => `コインが不足しています（必要 ${n(d.required)}コイン／所持 ${n(d.balance)}コイン）。`,
};

const UNAUTHENTICATED: RefusalEntry = { status: 401, message: 'ログインしてください。' };

/** A JST day 'YYYY-MM-DD' as 2026年12月24日. */
const jstDayText = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return `${y}年${m}月${d}日`;
};
/** The last day of a self-exclusion from its details' end (ISO), in the member's words. */
const exclusionDayText = (d: Record<string, unknown>) => {
  const until = new Date(String(d.excludedUntil ?? ''));
  return Number.isNaN(until.getTime()) ? '' : `（${jstDayText(exclusionLastDay(until))}まで）`;
};

// Self-limits (docs/decisions/035): the purchase and the draw say the same words for an exclusion.
const SELF_EXCLUDED: RefusalEntry = {
  status: 403,
  message: (d) =>
    `自己除外期間中${exclusionDayText(d)}は購入・ガチャができません。期間中の解除・短縮はできません。獲得商品の発送・交換はご利用いただけます。`,
};

/** Retry-After of a maintenance refusal: until the planned end (at least a minute), else ten minutes. */
export function maintenanceRetryAfterSeconds(details: Record<string, unknown>, now = Date.now()): number {
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

const draw: Section<DrawRefusalCode> = {
  GACHA_NOT_FOUND,
  UNAUTHENTICATED,
  STAFF_CANNOT_DRAW: { status: 403, message: 'スタッフアカウントではガチャを引けません。' },
  DRAW_COUNT_INVALID: { status: 400, message: 'このガチャでは選べない回数です。' },
  IDEMPOTENCY_KEY_REUSED,
  SOLD_OUT: { status: 409, message: 'このガチャは完売しました。' },
  NOT_ENOUGH_LOTS: {
    status: 409,
    message: (d) => `残り口数が足りません（残り${n(d.remaining)}口）。残りの口数以下でお試しください。`,
  },
  GACHA_ENDED: { status: 422, message: 'このガチャの販売は終了しました。' },
  GACHA_NOT_ON_SALE: { status: 422, message: 'このガチャはまだ販売開始前です。' },
  RANK_TOO_LOW: { status: 403, message: 'このガチャは対象ランク以上の会員様限定です。' },
  INSUFFICIENT_COINS,
  DRAW_LIMIT_REACHED: {
    status: 422,
    message: (d) => `このガチャはお一人様${n(d.limit)}口までです（購入済み ${n(d.used)}口）。`,
  },
  SELF_EXCLUDED,
  DRAW_SPEND_LIMIT_REACHED: {
    status: 422,
    message: (d) =>
      `今月のガチャ消費上限（${n(d.limitCoins)}コイン）に達しています（今月の消費 ${n(d.usedCoins)}コイン、残り ${n(d.remainingCoins)}コイン）。上限はマイページの「利用上限・自己除外」で確認できます。`,
  },
  DRAW_BUSY: {
    status: 409,
    message: 'ただいま混み合っています。少し待ってからもう一度お試しください。',
    headers: { 'Retry-After': '1' },
  },
  MAINTENANCE,
};

// The mailbox (decision 034): another member's mail is "not found", never "forbidden".
const mailbox: Section<MailRefusalCode> = {
  UNAUTHENTICATED,
  MAIL_NOT_FOUND: { status: 404, message: 'メールが見つかりません。' },
  MAIL_NO_ATTACHMENT: { status: 422, message: 'このメールには受け取れるプレゼントがありません。' },
  MAIL_ALREADY_CLAIMED: { status: 409, message: 'このプレゼントは受け取り済みです。' },
  MAIL_CLAIM_EXPIRED: {
    status: 410,
    message: (d) =>
      `受け取り期限${typeof d.claimUntil === 'string' ? `（${jstText(d.claimUntil)}）` : ''}を過ぎたため、受け取れません。`,
  },
  MAIL_CLAIM_NOT_AVAILABLE: {
    status: 403,
    message: 'このアカウントではプレゼントを受け取れません。お問い合わせください。',
  },
  MAIL_ALREADY_CANCELED: { status: 409, message: 'このメールは取り消し済みです。' },
};

// The daily login bonus (docs/decisions/033): the day is Japan time, so the next claim opens at 0:00 JST.
const loginBonus: Section<LoginBonusRefusalCode> = {
  UNAUTHENTICATED,
  LOGIN_BONUS_DISABLED: { status: 404, message: 'ログインボーナスは現在実施していません。' },
  LOGIN_BONUS_ALREADY_CLAIMED: {
    status: 409,
    message: (d) =>
      `本日のログインボーナスは受け取り済みです。${
        typeof d.nextClaimAt === 'string' ? `次回は${jstText(d.nextClaimAt)}（日本時間）から受け取れます。` : ''
      }`,
  },
  LOGIN_BONUS_STAFF: { status: 403, message: 'スタッフアカウントではログインボーナスを受け取れません。' },
  LOGIN_BONUS_NOT_AVAILABLE: {
    status: 403,
    message: 'このアカウントではログインボーナスを受け取れません。お問い合わせください。',
  },
};

// Invitations (docs/decisions/038): a code is typed by hand only by a new member (the link's cookie does it at sign-up).
const invitation: Section<InvitationRefusalCode> = {
  UNAUTHENTICATED,
  INVITATION_CODE_INVALID: {
    status: 400,
    message: '招待コードは8文字の英数字です（0・1・O・Iは使いません）。入力内容をご確認ください。',
  },
  INVITATION_CODE_NOT_FOUND: {
    status: 404,
    message: 'この招待コードは見つかりません。招待してくれた方にコードをもう一度ご確認ください。',
  },
  INVITATION_SELF: { status: 422, message: 'ご自身の招待コードは使えません。' },
  INVITATION_ALREADY_ATTACHED: { status: 409, message: '招待コードはすでに登録済みです（おひとり様1回まで）。' },
  INVITATION_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `招待コードの入力回数が多すぎます。${n(Math.max(1, Math.ceil(Number(d.retryAfterSeconds ?? 3600) / 60)))}分ほど待ってからお試しください。`,
    headers: (d) => ({ 'Retry-After': String(Math.max(1, Number(d.retryAfterSeconds ?? 3600))) }),
  },
  INVITATION_TOO_LATE: {
    status: 409,
    message: (d) => `招待コードは会員登録から${n(d.hours ?? 72)}時間以内、初回購入の前までに入力してください。`,
  },
};

const limits: Section<LimitsRefusalCode> = {
  NO_PENDING_LIMIT_CHANGE: { status: 409, message: '取り消せる上限の変更予約はありません。' },
  SELF_EXCLUSION_ALREADY_LONGER: {
    status: 409,
    message: (d) => `すでに自己除外期間中${exclusionDayText(d)}です。期間の短縮・解除はできません。`,
  },
};

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
const farm: Section<FarmRefusalCode> = {
  FARM_PAUSED: { status: 503, message: 'ファームは現在メンテナンス中です。しばらくしてからお試しください。' },
  FARM_NOT_AVAILABLE: { status: 403, message: 'このアカウントではファームを利用できません。' },
  FARM_PLOT_LOCKED: { status: 409, message: 'この畑はまだ解放されていません。レベルを上げると使えるようになります。' },
  FARM_PLOT_NOT_EMPTY: { status: 409, message: 'この畑にはすでに作物が植えられています。' },
  FARM_SEED_UNKNOWN: { status: 404, message: 'その種は現在植えられません。別の種を選んでください。' },
  FARM_SEED_LOCKED: {
    status: 409,
    message: (d) => `この種はレベル${n(d.unlockLevel)}から植えられます。`,
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

// Friends (docs/decisions/045): codes are the members' personal codes, typed in full or half width.
const friends: Section<FriendRefusalCode> = {
  FRIEND_CODE_INVALID: { status: 400, message: 'フレンドコードは8文字の英数字で入力してください。' },
  FRIEND_CODE_UNKNOWN: { status: 404, message: 'このフレンドコードの会員が見つかりません。コードをご確認ください。' },
  FRIEND_SELF: { status: 409, message: 'ご自身のフレンドコードです。友達のコードを入力してください。' },
  FRIEND_ALREADY: { status: 409, message: 'すでにフレンドです。' },
  FRIEND_REQUEST_PENDING: { status: 409, message: 'すでにフレンド申請を送っています。相手の承認をお待ちください。' },
  FRIEND_REQUEST_DECLINED_RECENTLY: {
    status: 409,
    message: (d) =>
      `この会員への申請は承認されませんでした。${typeof d.retryAt === 'string' ? `${jstText(d.retryAt)}以降に` : 'しばらくしてから'}もう一度申請できます。`,
  },
  FRIEND_LIMIT_REACHED: {
    status: 409,
    message: (d) => `フレンドは${n(d.limit)}人（申請中を含む）までです。フレンドを整理してから申請してください。`,
  },
  FRIEND_OTHER_LIMIT_REACHED: { status: 409, message: '相手のフレンド数が上限に達しているため、申請できません。' },
  FRIEND_NOT_FOUND: { status: 404, message: 'フレンド申請が見つかりません。すでに処理されている可能性があります。' },
  FRIEND_NOT_AVAILABLE: { status: 403, message: 'このアカウントではフレンド機能を利用できません。' },
};

const drawLookup: Section<DrawLookupRefusalCode> = {
  DRAW_NOT_FOUND: { status: 404, message: '抽選結果が見つかりません。' },
  NOT_REVEALED_YET: { status: 409, message: 'シードと抽選ログは完売または販売終了後に公開されます。' },
};

const prizeChoice: Section<PrizeChoiceRefusalCode> = {
  PRIZE_NOT_FOUND: { status: 404, message: '対象のカードが見つかりません。' },
  PRIZE_ALREADY_DECIDED: { status: 409, message: 'すでにコイン交換または発送手続き済みのカードが含まれています。' },
  PRIZE_KEPT: {
    status: 409,
    message: '発送用に保管中のカードが含まれています。保管中のカードは1枚ずつ確認してから交換してください。',
  },
};

const conversionUndo: Section<ConversionUndoRefusalCode> = {
  CONVERSION_NOT_FOUND: { status: 404, message: '元に戻せる交換が見つかりません。' },
  UNDO_EXPIRED: {
    status: 409,
    message: '元に戻せる時間を過ぎました。交換したコインは無償コインとして付与されています。',
  },
  COINS_SPENT: {
    status: 409,
    message: '交換で受け取ったコインをすでに使ったため、元に戻せません。',
  },
  UNDO_UNAVAILABLE: { status: 409, message: 'この交換は元に戻せなくなりました。カードの状態をご確認ください。' },
};

const gachaLookup: Section<GachaLookupRefusalCode> = {
  GACHA_NOT_FOUND,
  GENRE_NOT_FOUND,
};

const genreAdmin: Section<GenreRefusalCode> = {
  GENRE_ALIAS_TAKEN: {
    status: 409,
    message: (d) =>
      `「${String(d.alias ?? '')}」はジャンル「${String(d.genre ?? '')}」のIDか別名として使われています。別のものにしてください。`,
  },
};

const packAdmin: Section<PackAdminRefusalCode> = {
  GENRE_NOT_FOUND,
  GACHA_NOT_FOUND,
  GACHA_EXISTS: { status: 409, message: (d) => `ガチャ ${String(d.gachaId)} は既にあります。` },
  ALREADY_PUBLISHED: { status: 409, message: (d) => `ガチャ ${String(d.gachaId)} は公開済みです。` },
  LOTS_MISMATCH: { status: 409, message: '賞の数量と総口数が一致しません。' },
  NOT_PUBLISHED: { status: 409, message: '下書きのガチャは終了できません。削除してください。' },
  STOCK_SHORT: {
    status: 409,
    message: (d) => {
      const cards = Array.isArray(d.cards)
        ? (d.cards as { cardName?: unknown; needed?: unknown; available?: unknown; short?: unknown }[])
        : [];
      const list = cards
        .map((c) => `「${String(c.cardName)}」必要 ${n(c.needed)}枚／在庫 ${n(c.available)}枚（${n(c.short)}枚不足）`)
        .join('、');
      return `在庫が足りないため公開できません（何も変更していません）: ${list || '不足のカードがあります'}。入庫してから公開してください。`;
    },
  },
  PACK_INVALID: {
    status: 422,
    message: (d) => {
      const problems = Array.isArray(d.problems) ? d.problems.map(String) : [];
      return `パックの内容に不備があるため公開できません（何も変更していません）: ${problems.join('／') || '内容を確認してください'}`;
    },
  },
  NOT_DRAFT: {
    status: 409,
    message:
      '公開済みのパックの内容（賞・口数・価格など）は変更できません。変えたいときは「コピーして新しい下書き」を作ってください。',
  },
};

const stock: Section<StockRefusalCode> = {
  STOCK_CARD_NOT_FOUND: { status: 404, message: '在庫カードが見つかりません。選び直してください。' },
  STOCK_BELOW_RESERVED: {
    status: 409,
    message: (d) =>
      `「${String(d.cardName ?? '')}」は${n(d.reserved)}枚が当選・販売中の口数に確保されているため、実在庫を${n(d.onHand)}枚にはできません。不足しているカードは発送デスクから「在庫なし」として報告してください。`,
  },
  STOCK_SUBSTITUTE_UNAVAILABLE: {
    status: 409,
    message: (d) => `「${String(d.cardName ?? '')}」は割り当てられる在庫がありません。別のカードを選んでください。`,
  },
  STOCK_SUBSTITUTE_TOO_LOW: {
    status: 422,
    message: (d) =>
      `「${String(d.cardName ?? '')}」の参考価値（${n(d.valueCoins)}コイン）が、元のカードの交換価値（${n(d.minValue)}コイン）より低いため代わりにできません。`,
  },
};

const wallet: Section<WalletRefusalCode> = {
  GRANT_KEY_REUSED: {
    status: 409,
    message: (d) =>
      `キー ${String(d.key)} は別の付与（会員・種類・枚数が違う）に使われています。何も付与していません。`,
  },
  INSUFFICIENT_COINS,
};

const idempotency: Section<IdempotencyRefusalCode> = { IDEMPOTENCY_KEY_REUSED };

const lineLink: Section<LineLinkRefusalCode> = {
  UNAUTHENTICATED,
  ALREADY_LINKED: { status: 409, message: 'LINEアカウントは連携済みです。' },
  INVALID_RETURN_URL: { status: 400, message: (d) => `戻り先のURLが正しくありません: ${String(d.url)}` },
  NOT_CONFIGURED: { status: 404, message: 'LINE連携は現在ご利用いただけません。' },
  LINK_FAILED: {
    status: 502,
    message: (d) =>
      d.status ? `LINE連携を開始できませんでした (${String(d.status)})` : 'LINE連携を開始できませんでした',
  },
};

/** What is left of this month's cap, said after a cap refusal. */
const capRest = (d: Record<string, unknown>) =>
  Number(d.remainingJpy ?? 0) > 0
    ? `今月はあと${yen(Number(d.remainingJpy))}までご購入いただけます。`
    : '今月はこれ以上ご購入いただけません。';
const methodLabel = (d: Record<string, unknown>) =>
  typeof d.method === 'string' && isPaymentMethod(d.method) ? PAYMENT_METHOD_INFO[d.method].label : 'お支払い先';

const payments: Section<PurchaseRefusalCode> = {
  AGE_DECLARATION_REQUIRED: { status: 409, message: 'ご購入の前に、年齢の確認（18歳以上かどうか）をお願いします。' },
  MONTHLY_CAP_EXCEEDED: {
    status: 422,
    message: (d) => `1か月のご購入上限（${yen(Number(d.capJpy ?? 0))}）を超えるため購入できません。${capRest(d)}`,
  },
  MINOR_CAP_EXCEEDED: {
    status: 422,
    message: (d) =>
      `18歳未満の方の1か月のご購入上限（${yen(Number(d.capJpy ?? 0))}）を超えるため購入できません。${capRest(d)}`,
  },
  FIRST_PURCHASE_ONLY: {
    status: 409,
    message: (d) =>
      d.pendingCheckout
        ? '初回限定パックのお支払いが手続き中です。そのお支払いを完了するか、しばらくしてからお試しください。'
        : `このコインパックは${FIRST_PURCHASE_ONLY_REASON}。ほかのコインパックをお選びください。`,
  },
  PACK_UNAVAILABLE: { status: 404, message: 'このコインパックは現在販売していません。' },
  PACK_OUTSIDE_WINDOW: {
    status: 409,
    message: (d) =>
      d.phase === 'before' && typeof d.startsAt === 'string'
        ? `このコインパックの販売は${jstText(d.startsAt)}（日本時間）からです。販売開始後にお求めいただくか、ほかのコインパックをお選びください。`
        : 'このコインパックの販売期間は終了しました。ほかのコインパックをお選びください。',
  },
  METHOD_UNAVAILABLE: {
    status: 404,
    message: 'このお支払い方法は現在ご利用いただけません。別のお支払い方法をお選びください。',
  },
  PURCHASE_HOLD: {
    status: 403,
    message: (d) =>
      d.reason === 'operator'
        ? 'アカウントの確認が必要なため、現在コインを購入できません。お手数ですがお問い合わせください。'
        : 'お支払いの確認が必要なため、現在コインを購入できません。お手数ですがお問い合わせください。',
  },
  // The same order key again: for another member's order it is simply invalid; for a finished order, say so.
  ORDER_KEY_CONFLICT: {
    status: 409,
    message: (d) =>
      d.status
        ? 'この購入手続きはすでに終了しています。購入履歴をご確認ください。'
        : 'この購入手続きは無効です。コインショップからやり直してください。',
  },
  IDEMPOTENCY_KEY_REUSED,
  CHECKOUT_IN_PROGRESS: { status: 409, message: 'お支払いページを準備しています。数秒後にもう一度お試しください。' },
  QUOTE_CHANGED: {
    status: 409,
    message: 'ご購入内容が変わりました（価格・コイン数・ボーナス）。お手数ですが、内容をもう一度ご確認ください。',
  },
  SELF_EXCLUDED,
  PURCHASE_LIMIT_REACHED: {
    status: 422,
    message: (d) =>
      `今月の購入上限（${yen(Number(d.limitJpy ?? 0))}）に達しています。${
        Number(d.remainingJpy ?? 0) > 0
          ? `ご自身で設定した上限まで、今月はあと${yen(Number(d.remainingJpy))}です。`
          : 'ご自身で設定した上限のため、今月はこれ以上ご購入いただけません。'
      }`,
  },
  PROVIDER_UNAVAILABLE: {
    status: 503,
    message: (d) =>
      `${methodLabel(d)}に接続できませんでした。時間をおいてもう一度お試しいただくか、別のお支払い方法をお選びください。`,
  },
  // The operators' refunds (npm run shop -- orders:refund).
  ORDER_NOT_FOUND: {
    status: 404,
    message: (d) => (d.orderId ? `注文 ${String(d.orderId)} が見つかりません。` : '注文が見つかりません。'),
  },
  ORDER_NOT_REFUNDABLE: { status: 409, message: 'この注文は支払いが完了していないため返金できません。' },
  PROVIDER_NOT_CONFIGURED: { status: 409, message: 'この決済方法は設定されていません。' },
  ORDER_NOT_IN_REVIEW: {
    status: 409,
    message: (d) =>
      `この注文は確認中ではありません（現在: ${ORDER_STATUS_LABELS[d.status as OrderStatus] ?? String(d.status)}）。ページを読み込み直してください。`,
  },
  REVIEW_DECISION_NOT_ALLOWED: {
    status: 409,
    message: (d) =>
      `この注文は保留の理由（${reviewReasonText(typeof d.reason === 'string' ? d.reason : null)}）に合わないため、その判断はできません。返金で対応してください。`,
  },
  MAINTENANCE,
};

const maintenance: Section<MaintenanceRefusalCode | MaintenanceSettingRefusalCode> = {
  MAINTENANCE,
  MAINTENANCE_END_IN_PAST: {
    status: 422,
    message: '終了予定が過去の日時です。これから先の日時（日本時間）を入力するか、空欄にしてください。',
  },
};

const staffAccess: Section<StaffAccessRefusalCode> = {
  SECOND_FACTOR_REQUIRED: {
    status: 403,
    message:
      '運営スタッフの機能を使うには、二段階認証（認証アプリ）の設定が必要です。マイページの「二段階認証」から設定してください。',
  },
};

const accountDeletion: Section<AccountDeletionRefusalCode> = {
  UNAUTHENTICATED,
  DELETION_NOT_CONFIRMED: {
    status: 400,
    message: (d) => `確認のため「${String(d.phrase ?? '退会する')}」と入力してください。`,
  },
  PASSWORD_REQUIRED: { status: 400, message: '確認のため、パスワードを入力してください。' },
  WRONG_PASSWORD: { status: 401, message: 'パスワードが正しくありません。' },
  REAUTHENTICATION_REQUIRED: {
    status: 401,
    message: (d) =>
      `安全のため、もう一度ログインしてから${d.minutes ? `${n(d.minutes)}分以内に` : ''}お手続きください。`,
  },
  REAUTH_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `試行回数が多すぎます。${d.retryAfterSeconds ? `${n(d.retryAfterSeconds)}秒ほど` : 'しばらく'}時間をおいてからお試しください。`,
  },
};

const admin: Section<AdminRefusalCode> = {
  PERMISSION_DENIED: { status: 403, message: 'この操作を行う権限がありません。管理者に権限を依頼してください。' },
  STAFF_NOT_FOUND: { status: 404, message: 'そのスタッフは見つかりません。' },
  STAFF_LAST_ADMIN: {
    status: 409,
    message: '最後の管理者は外せません。先に別の管理者を任命してください。',
  },
  STAFF_SELF_CHANGE: { status: 409, message: '自分自身の役割や権限は変更できません。別の管理者に依頼してください。' },
  STAFF_ALREADY: { status: 409, message: 'このアカウントはすでにスタッフです。' },
  STAFF_INVITATION_INVALID: {
    status: 410,
    message: 'この招待は無効です（使用済み・取り消し済み・期限切れのいずれか）。管理者に再度招待を依頼してください。',
  },
  STAFF_INVITATION_EMAIL_MISMATCH: {
    status: 403,
    message: (d) =>
      `この招待は別のメールアドレス${d.email ? `（${String(d.email)}）` : ''}宛てです。そのアドレスの会員としてログインしてください。`,
  },
  STAFF_INVITATION_EMAIL_UNVERIFIED: {
    status: 403,
    message: 'メールアドレスの確認が済んでいません。確認メールのリンクを開いてから、もう一度お試しください。',
  },
  STAFF_GRANT_NOT_HELD: {
    status: 403,
    message: (d) =>
      `ご自身が持っていない権限は付与できません${permissionList(d.permissions)}。必要なら管理者に依頼してください。`,
  },
  STAFF_ADMIN_ROLE_NOT_HELD: {
    status: 403,
    message: '管理者の招待・任命・変更・解除は、役割が「管理者」のスタッフだけが申請できます。',
  },
  STAFF_TARGET_HOLDS_MORE: {
    status: 403,
    message: (d) =>
      `ご自身が持っていない権限${permissionList(d.permissions)}を持つスタッフ（または招待）は、変更・解除・取り消しできません。管理者に依頼してください。`,
  },
  STAFF_REQUEST_PENDING: {
    status: 409,
    message: 'この相手の管理者の変更はすでに申請され、承認待ちです。承認待ち一覧をご確認ください。',
  },
  STAFF_REQUEST_NOT_FOUND: { status: 404, message: 'その管理者の変更の申請は見つかりません。' },
  STAFF_REQUEST_NOT_PENDING: {
    status: 409,
    message: (d) =>
      d.status === 'applied'
        ? 'この申請はすでに承認され、反映済みです。'
        : d.status === 'rejected'
          ? 'この申請はすでに却下されています。'
          : 'この申請はすでに処理されています。',
  },
  STAFF_REQUEST_SELF_APPROVAL: {
    status: 403,
    message: '自分が申請した管理者の変更は承認・却下できません。別の管理者に依頼してください。',
  },
  STAFF_REQUEST_APPROVER_NOT_ADMIN: {
    status: 403,
    message: '管理者の変更の承認・却下は、役割が「管理者」のスタッフだけが行えます。',
  },
  STAFF_REQUEST_OWN_ACCESS: {
    status: 403,
    message: '自分自身の役割に関する申請は承認・却下できません。別の管理者に依頼してください。',
  },
  STAFF_REQUEST_OUTDATED: {
    status: 409,
    message: '申請のあとに相手の役割が変わったため、反映できません。この申請を却下し、必要なら申請し直してください。',
  },
};

/** The permissions named in a refusal, in the staff page's words: 「（コインの付与、注文の返金）」. */
const permissionList = (permissions: unknown) =>
  Array.isArray(permissions) && permissions.length
    ? `（${permissions.map((p) => PERMISSION_LABELS[p as AdminPermission] ?? String(p)).join('、')}）`
    : '';

const coinKindName = (kind: unknown) => (kind === 'paid' ? '有償コイン' : '無償コイン');

const memberConsole: Section<MemberConsoleRefusalCode> = {
  MEMBER_NOT_FOUND: { status: 404, message: 'その会員は見つかりません。' },
  MEMBER_DELETED: { status: 409, message: 'この会員は退会済みのため、変更できません。' },
  MEMBER_SELF_ACTION: {
    status: 409,
    message: '自分自身のアカウントにはこの操作を行えません。別のスタッフに依頼してください。',
  },
  MEMBER_STAFF_PROTECTED: {
    status: 403,
    message: 'スタッフ・管理者のアカウントに対するこの操作は、管理者だけが行えます。',
  },
  ADJUSTMENT_NOT_FOUND: { status: 404, message: 'そのコイン調整の申請は見つかりません。' },
  ADJUSTMENT_NOT_PENDING: {
    status: 409,
    message: (d) =>
      d.status === 'applied'
        ? 'このコイン調整はすでに承認され、反映済みです。'
        : d.status === 'rejected'
          ? 'このコイン調整はすでに却下されています。'
          : 'このコイン調整はすでに処理されています。',
  },
  ADJUSTMENT_SELF_APPROVAL: {
    status: 403,
    message: '自分が申請したコイン調整は承認・却下できません。別の管理者に依頼してください。',
  },
  ADJUSTMENT_APPROVER_NOT_ADMIN: {
    status: 403,
    message: 'コイン調整の承認・却下は、役割が「管理者」のスタッフだけが行えます。',
  },
  ADJUSTMENT_KEY_REUSED: {
    status: 409,
    message: 'この調整フォームはすでに別の内容で送信されています。ページを読み込み直してからやり直してください。',
  },
  ADJUSTMENT_EXCEEDS_BALANCE: {
    status: 422,
    message: (d) =>
      `${coinKindName(d.kind)}の残高（${n(d.balance)}枚）を超えて減らすことはできません（減らす枚数 ${n(d.amount)}枚）。残高がマイナスになる調整は行えません。`,
  },
};

// Operators' mails with presents (decision 052).
const mailSends: Section<MailSendRefusalCode> = {
  MAIL_PRESENT_OVER_CAP: {
    status: 422,
    message: (d) =>
      `プレゼントは1人あたり${n(d.cap)}コインまでです（入力: ${n(d.coins)}コイン）。枚数を減らしてください。`,
  },
  MAIL_CONFIRMATION_STALE: {
    status: 409,
    message: (d) =>
      `確認したときから送り先・プレゼントが変わりました（送り先 ${n(d.confirmedRecipients)}人 → ${n(d.recipients)}人、最大 ${n(d.totalCoins)}コイン）。まだ送っていません。内容を確かめて、もう一度確認してください。`,
  },
  MAIL_REQUEST_NOT_FOUND: { status: 404, message: 'その配信の承認申請は見つかりません。' },
  MAIL_REQUEST_NOT_PENDING: {
    status: 409,
    message: (d) =>
      d.status === 'sent'
        ? 'この配信はすでに承認され、送信済みです。'
        : d.status === 'rejected'
          ? 'この配信はすでに却下されています。'
          : 'この配信はすでに処理されています。',
  },
  MAIL_REQUEST_SELF_APPROVAL: {
    status: 403,
    message: '自分が申請した配信は承認・却下できません。別の管理者に依頼してください。',
  },
  MAIL_REQUEST_APPROVER_NOT_ADMIN: {
    status: 403,
    message: 'プレゼント付き配信の承認・却下は、役割が「管理者」のスタッフだけが行えます。',
  },
  MAIL_REQUEST_KEY_REUSED: {
    status: 409,
    message: 'このメールはすでに送信（または承認申請）されています。送ったメールの一覧を確かめてください。',
  },
};

const addresses: Section<AddressRefusalCode> = {
  ADDRESS_NOT_FOUND: { status: 404, message: '住所が見つかりません。' },
  ADDRESS_LIMIT_REACHED: {
    status: 422,
    message: (d) => `登録できる住所は${n(d.limit ?? 5)}件までです。使わない住所を削除してから追加してください。`,
  },
  POSTAL_CODE_INVALID: { status: 400, message: '郵便番号は7桁の数字で入力してください（例: 100-0001）。' },
  POSTAL_CODE_NOT_FOUND: {
    status: 404,
    message: 'この郵便番号の住所は見つかりませんでした。番号をご確認のうえ、住所を入力してください。',
  },
};

const statusLabel = (d: Record<string, unknown>) =>
  SHIPPING_STATUS_LABELS[d.status as ShippingStatus] ?? String(d.status ?? '');
const actionLabel = (d: Record<string, unknown>) =>
  SHIPPING_TRANSITIONS[d.action as ShippingAction]?.label ?? 'この操作';
/** A carrier's check already says what is wrong in Japanese (carriers.ts); this is its fallback. */
const trackingMessage = (fallback: string) => (d: Record<string, unknown>) =>
  typeof d.message === 'string' && d.message ? d.message : fallback;

const shipping: Section<ShippingRefusalCode> = {
  SHIPPING_REQUEST_NOT_FOUND: { status: 404, message: '発送依頼が見つかりません。' },
  SHIPPING_TOO_FEW_PRIZES: {
    status: 422,
    message: (d) => `発送を依頼できるのは${n(d.min ?? 1)}枚からです。獲得商品をもう一度選んでください。`,
  },
  SHIPPING_PHONE_UNVERIFIED: {
    status: 422,
    message: '発送を依頼するには電話番号の認証が必要です。マイページの設定から電話番号を認証してください。',
  },
  SHIPPING_HOLD: {
    status: 403,
    message: (d) =>
      d.reason === 'chargeback'
        ? 'お支払いの取り消し（チャージバック）の確認が必要なため、現在発送を依頼できません。お手数ですがお問い合わせください。'
        : d.reason === 'operator'
          ? 'アカウントの確認が必要なため、現在発送を依頼できません。お手数ですがお問い合わせください。'
          : 'お支払いの確認が必要なため、現在発送を依頼できません。お手数ですがお問い合わせください。',
  },
  SHIPPING_FEE_CHANGED: {
    status: 409,
    message: (d) =>
      `発送手数料が変わりました（現在 ${n(d.feeCoins)}コイン）。確認画面をもう一度ご確認のうえ、お申し込みください。`,
  },
  SHIPPING_NOT_CANCELABLE: {
    status: 409,
    message: (d) =>
      `この発送依頼は「${statusLabel(d)}」のため、キャンセルできません。お困りの場合はお問い合わせください。`,
  },
  SHIPPING_STATUS_CONFLICT: {
    status: 409,
    message: (d) => `この発送依頼は現在「${statusLabel(d)}」のため、「${actionLabel(d)}」はできません。`,
  },
  SHIPPING_CSV_REFUSED: {
    status: 422,
    message: (d) => {
      const file = d.file as { message?: unknown } | undefined;
      if (file && typeof file.message === 'string') return `${file.message} 何も反映していません。`;
      const rows = Array.isArray(d.rows) ? new Set(d.rows.map((r: { line?: unknown }) => r.line)).size : 0;
      return `CSVの${n(rows)}行に誤りがあるため、取り込みませんでした（何も反映していません）。誤りを直して、ファイル全体をもう一度取り込んでください。`;
    },
  },
  TRACKING_NUMBER_REQUIRED: { status: 400, message: trackingMessage('追跡番号を入力してください。') },
  TRACKING_NUMBER_FORMAT: {
    status: 400,
    message: trackingMessage('追跡番号の形式が正しくありません。運送会社と番号をご確認ください。'),
  },
  SHIPPING_PRIZE_NOT_IN_REQUEST: { status: 404, message: 'このカードはこの発送依頼に含まれていません。' },
  SHIPPING_CARD_ALREADY_REPORTED: {
    status: 409,
    message: 'このカードはこの発送依頼で既に在庫なし・破損として報告済みです。',
  },
  SHIPPING_COMPENSATION_TOO_LOW: {
    status: 422,
    message: (d) => `補償のコインは、このカードの交換価値（${n(d.minCoins)}コイン）以上にしてください。`,
  },
};

/** A size in the words of the form: 5MB, 800KB. */
const megabytes = (bytes: unknown) => {
  const value = Number(bytes ?? 0);
  return value >= 1_000_000 ? `${Math.floor(value / 100_000) / 10}MB` : `${Math.floor(value / 1000)}KB`;
};
const imageNumber = (d: Record<string, unknown>) => (d.image ? `${n(d.image)}枚目の画像` : '画像');

const inquiries: Section<InquiryRefusalCode> = {
  INQUIRY_NOT_FOUND: { status: 404, message: 'お問い合わせが見つかりません。' },
  INQUIRY_RELATED_NOT_FOUND: {
    status: 404,
    message: '選んだご利用（注文・オリパ・発送依頼）が見つかりません。一覧から選び直してください。',
  },
  INQUIRY_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `短い時間に多くのお問い合わせが送信されました。${d.retryAfterSeconds ? `約${n(Math.ceil(Number(d.retryAfterSeconds) / 60))}分後に` : 'しばらく時間をおいて'}もう一度お送りください。`,
  },
  INQUIRY_CAPTCHA_REQUIRED: { status: 400, message: '確認のため、下のチェックを完了してから送信してください。' },
  INQUIRY_CAPTCHA_INVALID: {
    status: 400,
    message: '確認に失敗しました。もう一度チェックを完了してから送信してください。',
  },
  INQUIRY_SPAM: {
    status: 400,
    message: '送信できませんでした。ページを再読み込みして、もう一度お試しください。',
  },
  INQUIRY_ASSIGNEE_INVALID: {
    status: 422,
    message: '担当者には、お問い合わせを閲覧できるスタッフを選んでください。',
  },
  INQUIRY_TEMPLATE_NOT_FOUND: { status: 404, message: 'テンプレートが見つかりません。' },
};

const inquiryImages: Section<InquiryImageRefusalCode> = {
  INQUIRY_IMAGE_TOO_LARGE: {
    status: 400,
    message: (d) =>
      `${imageNumber(d)}が大きすぎます（1枚${megabytes(d.maxBytes)}まで）。小さくしてから添付してください。`,
  },
  INQUIRY_IMAGE_TYPE: {
    status: 400,
    message: (d) => `${imageNumber(d)}は読み込めませんでした。JPEG・PNG・WebPの画像を添付してください。`,
  },
  INQUIRY_IMAGE_TOO_MANY: {
    status: 400,
    message: (d) => `添付できる画像は${n(d.max ?? INQUIRY_LIMITS.images)}枚までです。`,
  },
};

const banners: Section<BannerRefusalCode> = {
  BANNER_NOT_FOUND: { status: 404, message: 'バナーが見つかりません。一覧を再読み込みしてください。' },
  BANNER_IMAGE_REQUIRED: { status: 400, message: 'バナーの画像を選んでください（JPEG・PNG・WebP）。' },
  BANNER_IMAGE_TOO_LARGE: {
    status: 413,
    message: (d) => `画像が大きすぎます（${megabytes(d.maxBytes)}まで）。小さくしてからアップロードしてください。`,
  },
  BANNER_IMAGE_TYPE: {
    status: 415,
    message: '画像を読み込めませんでした。JPEG・PNG・WebPの画像をアップロードしてください。',
  },
};

const content: Section<ContentRefusalCode> = {
  CONTENT_NOT_FOUND: { status: 404, message: 'ページが見つかりません。一覧を再読み込みしてください。' },
  CONTENT_VERSION_NOT_FOUND: {
    status: 404,
    message: (d) => `版${String(d.version ?? '')}が見つかりません。履歴を再読み込みしてください。`,
  },
  CONTENT_VERSION_CONFLICT: {
    status: 409,
    message: (d) =>
      `ほかの人が先に保存しました（最新は版${String(d.current ?? '')}）。ページを再読み込みして、最新の内容に変更を加え直してください。`,
  },
  CONTENT_UID_INVALID: {
    status: 400,
    message: (d) =>
      d.type === 'notice'
        ? 'お知らせのURL（/notices/ のあと）は半角英小文字・数字・-・_ で入力してください（例：2026-winter）。'
        : d.type === 'special'
          ? '特集ページのURLは半角英小文字・数字・-・_ の1階層で入力してください（例：winter-campaign）。'
          : 'URLは半角英小文字・数字・-・_ で、/ で区切って4階層までで入力してください（例：guide/faq）。',
  },
  CONTENT_UID_RESERVED: {
    status: 400,
    message: (d) => `「${String(d.segment ?? '')}」で始まるURLはサイトの機能が使っています。別のURLにしてください。`,
  },
  CONTENT_UID_TAKEN: {
    status: 409,
    message: (d) => `URL「/${String(d.uid ?? '')}」はほかのページが使っています。別のURLにしてください。`,
  },
  CONTENT_INVALID: {
    status: 400,
    message: (d) => (typeof d.message === 'string' && d.message ? d.message : '入力内容を確認してください。'),
  },
  CONTENT_NOT_PUBLISHED: { status: 409, message: 'このページは公開されていません。' },
  CONTENT_SCHEDULE_IN_PAST: { status: 400, message: '予約の日時は今より後にしてください。' },
  CONTENT_NOT_SCHEDULED: { status: 409, message: '予約はありません。ページを再読み込みしてください。' },
  CONTENT_IMAGE_TOO_LARGE: {
    status: 413,
    message: (d) => `画像が大きすぎます（${megabytes(d.maxBytes)}まで）。小さくしてからアップロードしてください。`,
  },
  CONTENT_IMAGE_TYPE: {
    status: 415,
    message: '画像を読み込めませんでした。JPEG・PNG・WebPの画像をアップロードしてください。',
  },
};

const risk: Section<RiskRefusalCode> = {
  SIGNAL_NOT_FOUND: { status: 404, message: 'そのシグナルは見つかりません。一覧を読み込み直してください。' },
  SIGNAL_ALREADY_DECIDED: {
    status: 409,
    message: (d) =>
      `このシグナルはすでに「${SIGNAL_STATUS_LABELS[d.status as SignalStatus] ?? '対応済み'}」と判断されています。一覧を読み込み直してください。`,
  },
};

// 特典コード (docs/decisions/032): each refusal says why, so the member knows whether to retry.
const promo: Section<PromoRefusalCode | PromoAdminRefusalCode> = {
  PROMO_CODE_INVALID: {
    status: 422,
    message: '特典コードは半角・全角の英数字4〜32文字で入力してください（ハイフンや空白は無視されます）。',
  },
  PROMO_CODE_UNKNOWN: { status: 404, message: 'この特典コードは見つかりません。入力に誤りがないかご確認ください。' },
  PROMO_CODE_NOT_YET_VALID: {
    status: 409,
    message: (d) =>
      d.startsAt ? `この特典コードは${jstText(String(d.startsAt))}から使えます。` : 'この特典コードはまだ使えません。',
  },
  PROMO_CODE_EXPIRED: {
    status: 410,
    message: (d) =>
      d.endsAt
        ? `この特典コードの有効期限（${jstText(String(d.endsAt))}まで）は過ぎています。`
        : 'この特典コードの有効期限は過ぎています。',
  },
  PROMO_CODE_USED_UP: { status: 409, message: 'この特典コードは利用上限に達したため、受付を終了しました。' },
  PROMO_CODE_ALREADY_REDEEMED: { status: 409, message: 'この特典コードはすでに利用済みです（おひとり様1回まで）。' },
  PROMO_CODE_NOT_NEW_MEMBER: {
    status: 403,
    message: (d) => `この特典コードは会員登録から${n(d.days)}日以内の方のみご利用いただけます。`,
  },
  PROMO_CODE_RANK_TOO_LOW: {
    status: 403,
    message: (d) => `この特典コードは${rankName(Number(d.minRank))}ランク以上の方のみ利用できます。`,
  },
  PROMO_CODE_RATE_LIMITED: {
    status: 429,
    message: (d) =>
      `特典コードの入力回数が多すぎます。${n(Math.max(1, Math.ceil(Number(d.retryAfterSeconds ?? 60) / 60)))}分ほど待ってからお試しください。`,
    headers: (d) => ({ 'Retry-After': String(Math.max(1, Number(d.retryAfterSeconds ?? 60))) }),
  },
  PROMO_CODE_TAKEN: { status: 409, message: (d) => `コード ${String(d.code)} はすでに登録されています。` },
  PROMO_CODE_NOT_FOUND: { status: 404, message: 'その特典コードは見つかりません。一覧を読み込み直してください。' },
};

// The farm's operators (/admin/farm, decision 044): a planted seed stays, for the history and the plots.
const farmAdmin: Section<FarmAdminRefusalCode> = {
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
      `期間は実在する日付で、開始日から終了日まで${n(d.maxDays)}日以内で指定してください（終了日は開始日以降）。`,
  },
};

/**
 * Joins sections; a code two modules share must mean the same answer in both (checked at load, so
 * a contradiction stops the start instead of depending on the order of the sections).
 */
function joinSections<S extends readonly Section<string>[]>(...sections: S): Readonly<Record<string, RefusalEntry>> {
  const all: Record<string, RefusalEntry> = {};
  for (const section of sections) {
    for (const [code, entry] of Object.entries(section)) {
      const existing = all[code];
      if (existing && (existing.status !== entry.status || String(existing.message) !== String(entry.message))) {
        throw new Error(`server/refusals.ts: ${code} has two different entries`);
      }
      all[code] = entry;
    }
  }
  return all;
}

/**
 * Every code any module can return (each module exports its codes as *_REFUSAL_CODES; the test
 * server/refusals.test.ts fails when one has no entry here).
 */
export type RefusalCode =
  | DrawRefusalCode
  | DrawLookupRefusalCode
  | PrizeChoiceRefusalCode
  | ConversionUndoRefusalCode
  | GachaLookupRefusalCode
  | PackAdminRefusalCode
  | GenreRefusalCode
  | StockRefusalCode
  | IdempotencyRefusalCode
  | WalletRefusalCode
  | LineLinkRefusalCode
  | StaffAccessRefusalCode
  | AccountDeletionRefusalCode
  | PurchaseRefusalCode
  | AdminRefusalCode
  | MemberConsoleRefusalCode
  | MailSendRefusalCode
  | AddressRefusalCode
  | ShippingRefusalCode
  | MaintenanceRefusalCode
  | MaintenanceSettingRefusalCode
  | InquiryRefusalCode
  | InquiryImageRefusalCode
  | BannerRefusalCode
  | ContentRefusalCode
  | RiskRefusalCode
  | PromoRefusalCode
  | PromoAdminRefusalCode
  | MailRefusalCode
  | LoginBonusRefusalCode
  | InvitationRefusalCode
  | LimitsRefusalCode
  | FarmRefusalCode
  | FriendRefusalCode
  | FarmAdminRefusalCode;

export const REFUSAL_CATALOGUE: Readonly<Record<RefusalCode, RefusalEntry>> = joinSections(
  draw,
  drawLookup,
  prizeChoice,
  conversionUndo,
  gachaLookup,
  packAdmin,
  genreAdmin,
  stock,
  idempotency,
  wallet,
  lineLink,
  staffAccess,
  accountDeletion,
  payments,
  admin,
  memberConsole,
  mailSends,
  addresses,
  shipping,
  maintenance,
  inquiries,
  inquiryImages,
  banners,
  content,
  risk,
  promo,
  loginBonus,
  mailbox,
  invitation,
  limits,
  farm,
  friends,
  farmAdmin,
) as Record<RefusalCode, RefusalEntry>;

export interface DescribedRefusal {
  status: RefusalStatus;
  code: RefusalCode;
  message: string;
  details: Record<string, unknown>;
  headers: Readonly<Record<string, string>>;
}

/**
 * The status, Japanese message and headers of a refusal, for the API and the pages alike.
 * @example const { status, message } = describeRefusal(outcome) // 422, 'コインが不足しています（必要 1,000コイン／所持 200コイン）。'
 */
export function describeRefusal(refusal: Refusal<RefusalCode>): DescribedRefusal {
  const entry = REFUSAL_CATALOGUE[refusal.code];
  if (!entry) throw new Error(`server/refusals.ts: no entry for refusal ${String(refusal.code)}`);
  const message = typeof entry.message === 'function' ? entry.message(refusal.details) : entry.message;
  const headers = typeof entry.headers === 'function' ? entry.headers(refusal.details) : (entry.headers ?? {});
  return { status: entry.status, code: refusal.code, message, details: refusal.details, headers };
}
