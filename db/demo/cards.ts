// The demo cards: each name has one rarity and one picture (public/demo/cards), shared by every pack that offers it.

/** Genres in the order their cards are numbered (card-01…06 pokemon, 07…12 onepiece, …). */
export const DEMO_CARD_GENRES = ['pokemon', 'onepiece', 'yugioh', 'duelmasters', 'weiss'] as const;

/** Six names per genre; a name's position fixes its rarity (DEMO_CARD_RARITIES) and its picture. */
export const DEMO_CARD_NAMES: Record<(typeof DEMO_CARD_GENRES)[number], readonly string[]> = {
  pokemon: [
    '星詠みのドラゴン',
    '雷光のフェネック',
    '月影のウルフ',
    '深海のリヴァイア',
    '森のささやきフォックス',
    'ひだまりバニー',
  ],
  onepiece: ['大海賊船長ガレオン', '嵐の航海士ミスト', '黄金の剣士ジン', '炎拳のバルド', '港町のコック', '見習い船員'],
  yugioh: ['閃光の竜騎士', '冥界の魔導師', '蒼炎のグリフォン', '鋼鉄のゴーレム', '影のアサシン', '森の守護精霊'],
  duelmasters: ['超次元覇王ゼノス', '聖天使ルミナ', '暗黒龍ヴォルグ', '水晶の賢者', '火炎ビートル', '草原の戦士'],
  weiss: ['桜舞う歌姫', '星空のアイドル', '放課後の魔法少女', '夏祭りの浴衣姿', '図書室の先輩', '教室のクラスメイト'],
};

/** The rarity printed after each name position: S賞 SAR, A賞 SR, B賞 RR, ラストワン賞 UR, C賞 R, and one spare C. */
export const DEMO_CARD_RARITIES = ['SAR', 'SR', 'RR', 'UR', 'R', 'C'] as const;

export interface DemoCard {
  genreId: string;
  /** 0–5: the name's position in its genre. */
  slot: number;
  /** The name without rarity, as printed on the picture. */
  name: string;
  rarity: (typeof DEMO_CARD_RARITIES)[number];
  /** The one picture of this card, e.g. /demo/cards/card-07.svg. */
  imagePath: string;
  /** Running number of the picture, 1–30. */
  number: number;
}

/**
 * The demo card of a genre's name position; unknown genres fall back to pokemon's names.
 * @example demoCard('onepiece', 0) // { name: '大海賊船長ガレオン', rarity: 'SAR', imagePath: '/demo/cards/card-07.svg', … }
 */
export function demoCard(genreId: string, slot: number): DemoCard {
  const genreIndex = Math.max(0, DEMO_CARD_GENRES.indexOf(genreId as (typeof DEMO_CARD_GENRES)[number]));
  const genre = DEMO_CARD_GENRES[genreIndex]!;
  const number = genreIndex * DEMO_CARD_RARITIES.length + slot + 1;
  return {
    genreId: genre,
    slot,
    name: DEMO_CARD_NAMES[genre][slot]!,
    rarity: DEMO_CARD_RARITIES[slot]!,
    imagePath: `/demo/cards/card-${String(number).padStart(2, '0')}.svg`,
    number,
  };
}

/** Every demo card, numbered 1–30 in picture order. */
export const DEMO_CARDS: DemoCard[] = DEMO_CARD_GENRES.flatMap((genre) =>
  DEMO_CARD_RARITIES.map((_, slot) => demoCard(genre, slot)),
);
