// Proof that the hits exist (issue 33 item 8): a graded prize card worth CERTIFIED_PRIZE_MIN_COINS or more
// is published with its grading certificate (company and number) and the SHA-256 of its photo as
// uploaded. Pure rules over a pack's tiers: what a certificate number looks like, which tiers need one,
// and what keeps a draft from being published (the editor's pre-publish check and publishPack share them).
import { z } from 'zod';

/** The grading companies the editor offers (a tier's card grade is one of them and the grade, e.g. PSA10). */
export const GRADE_COMPANIES = ['PSA', 'BGS', 'ARS'] as const;
export type GradeCompany = (typeof GRADE_COMPANIES)[number];

/**
 * The company of a card grade as the editor writes it ("PSA10", "BGS 9.5"), or null for an ungraded card.
 * @example gradeCompanyOf('BGS9.5') // 'BGS'; gradeCompanyOf(null) // null
 */
export function gradeCompanyOf(cardGrade: string | null | undefined): GradeCompany | null {
  const company = /^(PSA|BGS|ARS)\s*\S/.exec(cardGrade ?? '')?.[1];
  return (company as GradeCompany | undefined) ?? null;
}

/**
 * A certificate number as the company prints it: letters and digits (a hyphen inside), 4 to 30 of them.
 * Full-width characters become half-width and letters upper case (NFKC), spaces at either end go.
 */
export const certificateNumberSchema = z
  .string()
  .transform((text) => text.normalize('NFKC').trim().toUpperCase())
  .pipe(
    z
      .string()
      .regex(
        /^(|[0-9A-Z][0-9A-Z-]{2,28}[0-9A-Z])$/,
        '鑑定番号は鑑定書（ケースのラベル）に印刷された英数字のとおりに入力してください（例: 12345678）。',
      ),
  );

/** The SHA-256 of a photo's bytes as the shop records it: 64 lower-case hex digits. */
export const photoSha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

/** A tier's photo kept byte for byte: its hash and where the original is served. */
export interface TierPhoto {
  sha256: string;
  originalPath: string;
}

/** What the certificate rules read of a tier (a definition's tier with its photo, or a stored tier row). */
export interface CertifiableTier {
  label: string;
  cardName: string;
  cardGrade?: string | null;
  quantity: number;
  conversionValue: number;
  certificateCompany?: string | null;
  certificateNumber?: string | null;
  photo?: TierPhoto | null;
}

/**
 * Whether a tier must carry its certificate and photo before publication: a graded card (its grade names a
 * company) worth at least `minCoins`.
 * @example needsCertificate({ cardGrade: 'PSA10', conversionValue: 50_000 }, 10_000) // true
 */
export function needsCertificate(
  tier: Pick<CertifiableTier, 'cardGrade' | 'conversionValue'>,
  minCoins: number,
): boolean {
  return gradeCompanyOf(tier.cardGrade) !== null && tier.conversionValue >= minCoins;
}

/**
 * A stored tier's photo kept as uploaded, or null.
 * @example photoOf(tierRow) // { sha256: '9f…', originalPath: '/media/originals/9f….jpg' }
 */
export function photoOf(tier: {
  cardPhotoSha256: string | null;
  cardPhotoOriginalPath: string | null;
}): TierPhoto | null {
  return tier.cardPhotoSha256 && tier.cardPhotoOriginalPath
    ? { sha256: tier.cardPhotoSha256, originalPath: tier.cardPhotoOriginalPath }
    : null;
}

/**
 * What is wrong with a definition's certificate in itself (a pack written as JSON), or null: a company
 * without a number or the reverse, a company other than the grade's, more than one card.
 * @example certificateMismatch({ label: 'S賞', cardGrade: 'BGS10', quantity: 1, certificateCompany: 'PSA', certificateNumber: '1234' })
 */
export function certificateMismatch(
  tier: Pick<CertifiableTier, 'label' | 'cardGrade' | 'quantity' | 'certificateCompany' | 'certificateNumber'>,
): string | null {
  if (!tier.certificateCompany !== !tier.certificateNumber)
    return `${tier.label}: 鑑定会社と鑑定番号は両方そろえてください。`;
  if (tier.certificateCompany && tier.certificateCompany !== gradeCompanyOf(tier.cardGrade))
    return `${tier.label}: 鑑定番号の会社（${tier.certificateCompany}）がカードの鑑定（${tier.cardGrade ?? '鑑定なし'}）と違います。`;
  if (tier.certificateCompany && tier.quantity !== 1) return `${tier.label}: 鑑定番号のある賞の数量は1です。`;
  return null;
}

/** "PSA 鑑定番号 12345678": a certificate in the pack page's and the editor's words. */
export const certificateWords = (company: string, number: string) => `${company} 鑑定番号 ${number}`;

/**
 * What keeps a pack from publication under the certificate rule, one Japanese sentence per problem (empty:
 * nothing): a tier that needs a certificate without its number or photo, or with more than one card (a
 * certificate names one card), and a certificate named by two tiers.
 * @example certificateProblems(definition.tiers, 10_000) // ['S賞（リザードン PSA10）: 鑑定番号を入力してください（「賞」の段階）。']
 */
export function certificateProblems(tiers: readonly CertifiableTier[], minCoins: number): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const tier of tiers) {
    const name = `${tier.label}（${tier.cardName}${tier.cardGrade ? ` ${tier.cardGrade}` : ''}）`;
    if (tier.certificateCompany && tier.certificateNumber) {
      const key = `${tier.certificateCompany} ${tier.certificateNumber}`;
      const other = seen.get(key);
      if (other)
        problems.push(
          `${certificateWords(tier.certificateCompany, tier.certificateNumber)} が${other}と${tier.label}の両方に入力されています。鑑定番号は1枚ごとに違います。`,
        );
      else seen.set(key, tier.label);
    }
    if (!needsCertificate(tier, minCoins)) continue;
    if (tier.quantity !== 1)
      problems.push(
        `${name}: 鑑定書は1枚ごとに違うため、証明の必要な鑑定品は1枚ずつ別の賞にしてください（今は${tier.quantity}枚）。`,
      );
    if (!tier.certificateNumber) problems.push(`${name}: 鑑定番号を入力してください（「賞」の段階）。`);
    if (!tier.photo)
      problems.push(`${name}: カードの写真を登録してください（「画像」の段階。鑑定品の写真は原本のまま保存します）。`);
  }
  return problems;
}

/**
 * The certificates a beacon pack commits to (oripa-commitment-b1, decision 081): every tier that carries a
 * certificate and its photo's hash, whatever its value.
 * @example certificatesOf(tierRows) // [{ tierId: 'pack.S', company: 'PSA', number: '12345678', photoSha256: '…' }]
 */
export function certificatesOf(
  tiers: {
    id: string;
    certificateCompany: string | null;
    certificateNumber: string | null;
    cardPhotoSha256: string | null;
  }[],
): { tierId: string; company: string; number: string; photoSha256: string }[] {
  return tiers
    .filter((t) => t.certificateCompany && t.certificateNumber && t.cardPhotoSha256)
    .map((t) => ({
      tierId: t.id,
      company: t.certificateCompany!,
      number: t.certificateNumber!,
      photoSha256: t.cardPhotoSha256!,
    }));
}
