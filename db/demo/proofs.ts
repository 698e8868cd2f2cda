// The demo's graded hits with their proof (issue 33 item 8): two tiers of the PSA10 pack carry a
// certificate and a photo of the card in its case (public/demo/proofs/, drawn by scripts/demo-art/proofs.ts).
// The numbers start with DEMO, so nobody looking one up at a grading company finds somebody's real card.
import { demoCard, type DemoCard } from './cards';

/** A demo tier's certificate and the photo file that shows it. */
export interface DemoCertifiedTier {
  gachaId: string;
  tierKey: string;
  company: 'PSA';
  number: string;
  /** The grade printed on the label (the tier's card grade without its company). */
  grade: string;
  card: DemoCard;
  /** Under public/demo/proofs/: served as it is, its bytes hashed when the demo data is loaded. */
  file: string;
}

export const DEMO_CERTIFIED_TIERS: readonly DemoCertifiedTier[] = [
  {
    gachaId: 'stellar-pokemon-002',
    tierKey: 'S',
    company: 'PSA',
    number: 'DEMO-10000001',
    grade: '10',
    card: demoCard('pokemon', 0),
    file: 'demo-10000001.jpg',
  },
  {
    gachaId: 'stellar-pokemon-002',
    tierKey: 'LAST',
    company: 'PSA',
    number: 'DEMO-10000002',
    grade: '10',
    card: demoCard('pokemon', 3),
    file: 'demo-10000002.jpg',
  },
];
