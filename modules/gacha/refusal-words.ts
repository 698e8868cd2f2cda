// The packs' refusal words (look-ups, genres, the pack lifecycle, stock): status and Japanese message.
import { digits, type RefusalEntry, type RefusalWords } from '#modules/kernel';
import type { GachaLookupRefusalCode } from './catalogue';
import type { GenreRefusalCode } from './genres';
import type { PackAdminRefusalCode } from './admin';
import type { StockRefusalCode } from './stock';

// A look-up names no id (the member asked for it); the operator's command names the one it could not find.
const GACHA_NOT_FOUND: RefusalEntry = {
  status: 404,
  message: (d) => (d.gachaId ? `ガチャ ${String(d.gachaId)} がありません。` : 'ガチャが見つかりません。'),
};
const GENRE_NOT_FOUND: RefusalEntry = {
  status: 404,
  message: (d) => (d.genreId ? `ジャンル ${String(d.genreId)} がありません。` : 'ジャンルが見つかりません。'),
};

export const GACHA_LOOKUP_REFUSAL_WORDS: RefusalWords<GachaLookupRefusalCode> = {
  GACHA_NOT_FOUND,
  GENRE_NOT_FOUND,
};

export const GENRE_REFUSAL_WORDS: RefusalWords<GenreRefusalCode> = {
  GENRE_ALIAS_TAKEN: {
    status: 409,
    message: (d) =>
      `「${String(d.alias ?? '')}」はジャンル「${String(d.genre ?? '')}」のIDか別名として使われています。別のものにしてください。`,
  },
};

export const PACK_ADMIN_REFUSAL_WORDS: RefusalWords<PackAdminRefusalCode> = {
  GENRE_NOT_FOUND,
  GACHA_NOT_FOUND,
  GACHA_EXISTS: { status: 409, message: (d) => `ガチャ ${String(d.gachaId)} は既にあります。` },
  ALREADY_PUBLISHED: { status: 409, message: (d) => `ガチャ ${String(d.gachaId)} は公開済みです。` },
  LOTS_MISMATCH: { status: 409, message: '賞の数量と総口数が一致しません。' },
  NOT_PUBLISHED: { status: 409, message: '下書きのガチャは終了できません。削除してください。' },
  BEACON_NOT_CONFIGURED: {
    status: 409,
    message:
      'このガチャは「ビーコン抽選」方式ですが、店舗に乱数ビーコン（drand）と受付証の署名鍵が設定されていないため公開できません。設定するか、方式を「通常」に戻してください。',
  },
  STOCK_SHORT: {
    status: 409,
    message: (d) => {
      const cards = Array.isArray(d.cards)
        ? (d.cards as { cardName?: unknown; needed?: unknown; available?: unknown; short?: unknown }[])
        : [];
      const list = cards
        .map(
          (c) =>
            `「${String(c.cardName)}」必要 ${digits(c.needed)}枚／在庫 ${digits(c.available)}枚（${digits(c.short)}枚不足）`,
        )
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

export const STOCK_REFUSAL_WORDS: RefusalWords<StockRefusalCode> = {
  STOCK_CARD_NOT_FOUND: { status: 404, message: '在庫カードが見つかりません。選び直してください。' },
  STOCK_BELOW_RESERVED: {
    status: 409,
    message: (d) =>
      `「${String(d.cardName ?? '')}」は${digits(d.reserved)}枚が当選・販売中の口数に確保されているため、実在庫を${digits(d.onHand)}枚にはできません。不足しているカードは発送デスクから「在庫なし」として報告してください。`,
  },
  STOCK_SUBSTITUTE_UNAVAILABLE: {
    status: 409,
    message: (d) => `「${String(d.cardName ?? '')}」は割り当てられる在庫がありません。別のカードを選んでください。`,
  },
  STOCK_SUBSTITUTE_TOO_LOW: {
    status: 422,
    message: (d) =>
      `「${String(d.cardName ?? '')}」の参考価値（${digits(d.valueCoins)}コイン）が、元のカードの交換価値（${digits(d.minValue)}コイン）より低いため代わりにできません。`,
  },
};
