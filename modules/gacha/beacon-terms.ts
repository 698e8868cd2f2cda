// A beacon pack's committed terms as the draw module needs them to close and settle its rounds and to build
// its receipts (decision 081): the pack's number (its round lock), commitment and pseudonym salt, the drand
// chain it committed to, the receipts' key and the close margin. Read only: written once by publishPack.
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachaBeaconTerms, gachas, gachaSecrets, gachaTiers } from './schema';
import type { BeaconSourceTerms, PackTier, TierCertificate } from '#modules/fairness';
import { certificatesOf } from './certificates';
import { releaseStockOfEndedPack } from './pack-stock';

export interface BeaconPackTerms {
  gachaId: string;
  /** The pack's number: the key of its round lock (advisory lock 81/no). */
  no: number;
  title: string;
  pricePerDraw: number;
  status: string;
  totalLots: number;
  commitment: string;
  committedAt: Date;
  /** The salt of the members' pseudonyms in this pack (never published). */
  revealSalt: string;
  source: BeaconSourceTerms;
  receiptKey: string;
  closeMarginMs: number;
  tiers: PackTier[];
  /** The graded hits' certificates and photo hashes, as committed (issue 33 item 8). */
  certificates: TierCertificate[];
}

/**
 * The committed terms of the given beacon packs (a pack that is not a published beacon pack is absent).
 * @example const terms = (await beaconPackTerms(db, ['night-beacon-001'])).get('night-beacon-001')
 */
export async function beaconPackTerms(db: Database, gachaIds: string[]): Promise<Map<string, BeaconPackTerms>> {
  const ids = [...new Set(gachaIds)];
  if (ids.length === 0) return new Map();
  const [rows, tiers] = await Promise.all([
    db
      .select({ pack: gachas, terms: gachaBeaconTerms, salt: gachaSecrets.revealSalt })
      .from(gachaBeaconTerms)
      .innerJoin(gachas, eq(gachas.id, gachaBeaconTerms.gachaId))
      .innerJoin(gachaSecrets, eq(gachaSecrets.gachaId, gachaBeaconTerms.gachaId))
      .where(inArray(gachaBeaconTerms.gachaId, ids)),
    db.select().from(gachaTiers).where(inArray(gachaTiers.gachaId, ids)),
  ]);
  const answer = new Map<string, BeaconPackTerms>();
  for (const { pack, terms, salt } of rows) {
    if (!pack.commitment || !pack.committedAt) continue;
    answer.set(pack.id, {
      gachaId: pack.id,
      no: pack.no,
      title: pack.title,
      pricePerDraw: pack.pricePerDraw,
      status: pack.status,
      totalLots: pack.totalLots,
      commitment: pack.commitment,
      committedAt: pack.committedAt,
      revealSalt: salt,
      source: {
        chainHash: terms.chainHash,
        scheme: terms.scheme,
        publicKey: terms.publicKey,
        genesisTime: terms.genesisTime,
        period: terms.period,
      },
      receiptKey: terms.receiptKey,
      closeMarginMs: terms.closeMarginMs,
      certificates: certificatesOf(tiers.filter((t) => t.gachaId === pack.id)),
      tiers: tiers
        .filter((t) => t.gachaId === pack.id)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((t) => ({
          id: t.id,
          label: t.label,
          cardName: t.cardName,
          quantity: t.quantity,
          conversionValue: t.conversionValue,
          isLastOne: t.isLastOne,
          ...(t.kiribanAt?.length ? { kiribanAt: t.kiribanAt } : {}),
        })),
    });
  }
  return answer;
}

/**
 * A beacon pack that ended before it sold out frees the cards of the lots nobody drew once its last receipt is
 * settled (draw_settle_round says when), in the settlement's transaction.
 */
export async function releaseStockOfSettledBeaconPack(tx: Database, gachaId: string, now: Date): Promise<void> {
  await releaseStockOfEndedPack(tx, gachaId, now);
}
