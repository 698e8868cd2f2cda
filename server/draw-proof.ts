// A beacon draw's proof as the member's phone reads it (decision 081, §5): the receipt with the shop's
// signature, the round it waits for and when, the head and chain it joined, and once settled the beacon. The
// phone recomputes its lots from the pack's public draw log. The API's DrawResult and the result page both answer
// it; null for a sequence pack's draw.
import type { Database } from '#db/client';
import { beaconDrawProof, type DrawResult } from '#modules/draw';
import type { BeaconDrawEvidence } from '#modules/fairness';
import type { BeaconService } from './beacon';

export interface DrawBeaconBody extends BeaconDrawEvidence {
  settled: boolean;
  /** The key the pack committed to (the receipt's signer). */
  publicKey: string;
  closeMarginMs: number;
  /** When the receipt's round is due, and when it closes (ISO). */
  roundTime: string;
  closesAt: string;
}

/**
 * The proof of a beacon draw, or null for any other draw (and on a shop without the beacon service): one read of
 * the receipt and of the pack's terms.
 * @example const beacon = await drawBeaconBody(services, result)
 */
export async function drawBeaconBody(
  services: { db: Database; beacon?: BeaconService },
  result: Pick<DrawResult, 'drawId' | 'receipt'>,
): Promise<DrawBeaconBody | null> {
  if (!result.receipt || !services.beacon) return null;
  const proof = await beaconDrawProof(services.db, result.drawId);
  if (!proof) return null;
  const source = proof.terms.beacon;
  const time = (source.genesisTime + (proof.receipt.round - 1) * source.period) * 1000;
  return {
    ...proof,
    settled: result.receipt.settled,
    signature: services.beacon.signFor(proof.receipt, proof.terms.receiptKey),
    publicKey: proof.terms.receiptKey,
    roundTime: new Date(time).toISOString(),
    closesAt: new Date(time - proof.closeMarginMs).toISOString(),
  };
}
