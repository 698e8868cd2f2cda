// The pack editor's pre-publish checks (docs/decisions/030): the definition checked whole before a draft
// is published.
import type { Database } from '#db/client';
import { lotCountsOf, packDefinitionSchema, type PackDefinition } from './admin';
import { isLotTier } from './extra-prizes';
import { stockShortfallsOfPack, type StockShortfall } from './pack-stock';
import { packForEditor } from './editor';
import { certificateProblems } from './certificates';

// ── Pre-publish checks ────────────────────────────────────────────────────────────────────────────

/** Words 景品表示法 forbids in a pack's copy, matched after NFKC (１００％ is 100%): the default of the setting. */
export const DEFAULT_FORBIDDEN_PACK_WORDS = ['必ず当たる', '必ず', '確定', '100%', '絶対', '全員当選', '損しない'];

/** The forbidden words found in the pack's copy (title, description, tier and card names). */
export function forbiddenWordsIn(def: PackDefinition, words: readonly string[]): { word: string; where: string }[] {
  const norm = (s: string) => s.normalize('NFKC').toLowerCase();
  const places = copyPlaces(def);
  const found: { word: string; where: string }[] = [];
  for (const word of words) {
    if (!word.trim()) continue;
    for (const place of places) if (norm(place.text).includes(norm(word))) found.push({ word, where: place.where });
  }
  return found;
}

/** The copy an operator writes for a pack (title, description, tier and card names), each with where it stands. */
function copyPlaces(def: PackDefinition): { where: string; text: string }[] {
  return [
    { where: 'タイトル', text: def.title },
    { where: '説明', text: def.description ?? '' },
    ...def.tiers.flatMap((t) => [
      { where: `${t.label}の名前`, text: t.label },
      { where: `${t.label}のカード名`, text: t.cardName },
    ]),
  ];
}

/** A 還元率 stated in copy (after NFKC): 「還元率120%」「還元率は驚異の１２０％以上」「還元率 95.5パーセント」. */
const RETURN_RATE_CLAIM = /還元率[^0-9%\n]{0,8}?(\d{1,5}(?:\.\d+)?)\s*(?:%|パーセント)/g;

/**
 * The 還元率 claims in the pack's copy that its numbers do not back (景品表示法's 優良誤認: a member reads the
 * copy's figure as the pack's): each claim above the 還元率 the pack page shows — every lot's conversion value ÷
 * (the price × the lots), truncated to 0.1 %; the extra prizes (ラストワン賞, キリ番賞, 個人キリ番賞, ピタリ賞) are not
 * lots and do not count. Independent of the forbidden-words setting: a claim the numbers back («還元率80%» on an 86 % pack) passes.
 * @example unbackedClaimsIn(def) // ['タイトルの「還元率120%」: このオリパの還元率は86.0%です。…']
 */
export function unbackedClaimsIn(def: PackDefinition): string[] {
  const lotTiers = def.tiers.filter(isLotTier);
  const lots = lotTiers.reduce((sum, t) => sum + t.quantity, 0);
  const value = lotTiers.reduce((sum, t) => sum + t.quantity * t.conversionValue, 0);
  const cost = lots * def.pricePerDraw;
  // Tenths of a percent, truncated as the pack page shows it (integers: exact for any pack).
  const actualTenths = cost > 0 ? Math.floor((value * 1000) / cost) : null;
  const shown = actualTenths === null ? null : `${(actualTenths / 10).toFixed(1)}%`;
  const problems: string[] = [];
  for (const place of copyPlaces(def)) {
    for (const match of place.text.normalize('NFKC').matchAll(RETURN_RATE_CLAIM)) {
      const claimedTenths = Math.round(Number(match[1]) * 10);
      if (actualTenths !== null && claimedTenths <= actualTenths) continue;
      problems.push(
        shown === null
          ? `${place.where}の「${match[0]}」: 口がないため還元率を計算できません。賞を決めてから書いてください。`
          : `${place.where}の「${match[0]}」: このオリパの還元率は${shown}です（全口の交換価値 ÷ 販売額。ラストワン賞・キリ番賞を除く）。数字を${shown}以下にするか、表現を削ってください。`,
      );
    }
  }
  return problems;
}

/**
 * The draw options a pack of `lots` lots cannot offer (more draws than lots), each in the editor's words.
 * @example drawOptionsOverLots([1, 10, 100], 20) // ['「100連」は総口数（20口）より多いため選べません。引く回数を20以下にしてください。']
 */
export function drawOptionsOverLots(options: readonly number[], lots: number): string[] {
  return options
    .filter((count) => count > lots)
    .map(
      (count) =>
        `「${count === 1 ? '1回' : `${count.toLocaleString('ja-JP')}連`}」は総口数（${lots.toLocaleString('ja-JP')}口）より多いため選べません。引く回数を${lots.toLocaleString('ja-JP')}以下にしてください。`,
    );
}

export interface PrePublishCheck {
  key: 'definition' | 'prizes' | 'draws' | 'images' | 'certificates' | 'stock' | 'copy';
  label: string;
  ok: boolean;
  problems: string[];
}

/**
 * Everything that must hold before a draft is published: the definition whole (lots, キリ番, window),
 * every lot has a prize, the images exist, every graded card worth `certifiedPrizeMinCoins` or more has
 * its certificate and its photo kept as uploaded, the stock covers every card, no forbidden words and no
 * 還元率 claim the pack's numbers do not back.
 * `imageExists` answers for a site path (the app knows where files live).
 */
export async function prePublishChecks(
  db: Database,
  gachaId: string,
  options: {
    forbiddenWords: readonly string[];
    imageExists: (path: string) => Promise<boolean>;
    certifiedPrizeMinCoins: number;
  },
): Promise<PrePublishCheck[] | null> {
  const found = await packForEditor(db, gachaId);
  if (!found) return null;
  const def = found.definition;
  const certificates = certificateProblems(
    def.tiers.map((t) => ({ ...t, photo: found.photos[t.key] ?? null })),
    options.certifiedPrizeMinCoins,
  );
  for (const t of def.tiers) {
    const photo = found.photos[t.key];
    if (photo && !(await options.imageExists(photo.originalPath)))
      certificates.push(`${t.label}（${t.cardName}）: 写真の原本が見つかりません。写真を登録し直してください。`);
  }
  const whole = packDefinitionSchema.safeParse(def);
  const lots = lotCountsOf(def.tiers).totalLots;
  const prizeProblems: string[] = [];
  if (lots < 1) prizeProblems.push('口数のある賞がありません（通常の賞を1つ以上入れてください）。');
  for (const t of def.tiers)
    if (!t.cardName.trim() || t.conversionValue < 0) prizeProblems.push(`${t.label}: カードが決まっていません。`);
  // An option larger than the lots is a dead button for members (issue 28 item 4): refused before publishing.
  const drawProblems = lots < 1 ? [] : drawOptionsOverLots(def.drawOptions ?? [1, 10, 100], lots);
  const images = [
    { label: 'パック画像', path: def.imagePath },
    ...def.tiers.map((t) => ({ label: `${t.label}（${t.cardName}）の写真`, path: t.cardImagePath })),
  ];
  const missingImages: string[] = [];
  for (const image of images)
    if (!image.path || !(await options.imageExists(image.path))) missingImages.push(`${image.label}がありません。`);
  const short: StockShortfall[] = def.tiers.length ? await stockShortfallsOfPack(db, gachaId) : [];
  const words = forbiddenWordsIn(def, options.forbiddenWords);
  const claims = unbackedClaimsIn(def);
  return [
    {
      key: 'definition',
      label: '内容（価格・口数・キリ番・販売期間）',
      ok: whole.success,
      problems: whole.success ? [] : [...new Set(whole.error.issues.map((i) => i.message))],
    },
    { key: 'prizes', label: 'すべての口に賞がある', ok: prizeProblems.length === 0, problems: prizeProblems },
    { key: 'draws', label: '引く回数が口数以内', ok: drawProblems.length === 0, problems: drawProblems },
    { key: 'images', label: '画像がそろっている', ok: missingImages.length === 0, problems: missingImages },
    {
      key: 'certificates',
      label: `高額な鑑定品（交換${options.certifiedPrizeMinCoins.toLocaleString('ja-JP')}コイン以上）の鑑定番号と写真`,
      ok: certificates.length === 0,
      problems: certificates,
    },
    {
      key: 'stock',
      label: '在庫が口数をまかなえる',
      ok: short.length === 0,
      problems: short.map(
        (s) =>
          `「${s.cardName}${s.cardGrade ? ` ${s.cardGrade}` : ''}」必要 ${s.needed.toLocaleString('ja-JP')}枚／在庫 ${s.available.toLocaleString('ja-JP')}枚`,
      ),
    },
    {
      key: 'copy',
      label: '景品表示法で使えない表現がない',
      ok: words.length === 0 && claims.length === 0,
      problems: [...words.map((w) => `${w.where}に「${w.word}」があります。`), ...claims],
    },
  ];
}
