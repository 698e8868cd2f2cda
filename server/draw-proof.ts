// A beacon draw's proof as the member's phone reads it (decision 081, §5): the receipt with the shop's
// signature, the round it waits for and when, the head and chain it joined, and once settled the beacon and the
// selection's inputs. The API's DrawResult and the result page both answer it; null for a sequence pack's draw.
import type { Database } from '#db/client';
import { beaconDrawProof, type BeaconDrawProof, type DrawResult } from '#modules/draw';
import type { DrawReceipt } from '#modules/fairness';
import type { BeaconService } from './beacon';

export interface DrawBeaconBody extends BeaconDrawProof {
  settled: boolean;
  receipt: DrawReceipt;
  /** Ed25519 by the key the pack committed to; null when this shop no longer holds that key. */
  signature: string | null;
  publicKey: string | null;
  /** When the receipt's round is due, and when it closes (ISO). */
  roundTime: string;
  closesAt: string;
}

/**
 * The proof of a beacon draw, or null for any other draw (and on a shop without the beacon service).
 * @example const beacon = await drawBeaconBody(services, result)
 */
export async function drawBeaconBody(
  services: { db: Database; beacon?: BeaconService },
  result: Pick<DrawResult, 'drawId' | 'receipt'>,
): Promise<DrawBeaconBody | null> {
  if (!result.receipt || !services.beacon) return null;
  const [signed, proof] = await Promise.all([
    services.beacon.signedReceipt(services.db, result.drawId),
    beaconDrawProof(services.db, result.drawId),
  ]);
  if (!signed || !proof) return null;
  const source = proof.terms.beacon;
  const time = (source.genesisTime + (signed.receipt.round - 1) * source.period) * 1000;
  return {
    ...proof,
    settled: result.receipt.settled,
    receipt: signed.receipt,
    signature: signed.signature,
    publicKey: signed.publicKey,
    roundTime: new Date(time).toISOString(),
    closesAt: new Date(time - proof.closeMarginMs).toISOString(),
  };
}
