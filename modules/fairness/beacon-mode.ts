// The beacon mode's byte formats and its one computation (decision 081; specified completely in
// docs/formats/reveal-formats.md, part B): the commitment `oripa-commitment-b1`, the receipt `oripa-receipt-v1`
// and its Ed25519 signature, the chain of heads `oripa-chain-v1`, the settlement round of a head, and the
// selection `oripa-beacon-select-v1` that turns a verified drand round into lots. Browser-safe: @noble's
// hashes and curves, no node import, no Web Crypto — so the shop, verify-pack and a member's phone run the very
// same code, synchronously.
import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { CommitmentInputError, type PackTerms } from './format';

export const BEACON_COMMITMENT_VERSION = 'oripa-commitment-b1';
export const BEACON_SELECT_VERSION = 'oripa-beacon-select-v1';
export const RECEIPT_VERSION = 'oripa-receipt-v1';
export const CHAIN_VERSION = 'oripa-chain-v1';
/** The signature scheme named in the commitment's `receipts` record. */
export const RECEIPT_SIGNATURE = 'ed25519';
/**
 * A head published less than this before its round's time settles with a later round (decision 081, §3): the
 * phones fetching it at close(r) must be able to hold it before the beacon exists.
 */
export const HEAD_GUARD_MS = 250;

/** The randomness source as the commitment names it (drand's chain info, v1 field meanings). */
export interface BeaconSourceTerms {
  chainHash: string;
  scheme: string;
  publicKey: string;
  genesisTime: number;
  period: number;
}

/** A grading certificate and the photo of the card (issue 33 item 8), for a tier above the shop's setting. */
export interface TierCertificate {
  tierId: string;
  /** The grading company as it prints its name: PSA, BGS, ARS … */
  company: string;
  /** The certificate number exactly as printed. */
  number: string;
  /** SHA-256 of the original photo file's bytes, 64 lower-case hex characters. */
  photoSha256: string;
}

export interface BeaconPackTerms extends PackTerms {
  beacon: BeaconSourceTerms;
  /** The shop's Ed25519 public key that signs this pack's receipts, 64 lower-case hex characters. */
  receiptKey: string;
  certificates: TierCertificate[];
}

const HEX32 = /^[0-9a-f]{64}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function str(value: string, field: string): string {
  if (typeof value !== 'string') throw new CommitmentInputError(`${field} must be a string`);
  if (LONE_SURROGATE.test(value)) throw new CommitmentInputError(`${field} is not well-formed Unicode`);
  return `${utf8ToBytes(value).length}:${value}`;
}

function int(value: number, field: string): string {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new CommitmentInputError(`${field} must be a non-negative integer`);
  return String(value);
}

function hex(value: string, field: string, pattern = HEX): string {
  if (typeof value !== 'string' || !pattern.test(value))
    throw new CommitmentInputError(`${field} must be lower-case hex`);
  return value;
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The lots of the multiset: every tier but the ラストワン賞 and キリ番賞 tiers. */
export function isLotTier(tier: PackTerms['tiers'][number]): boolean {
  return !tier.isLastOne && !(tier.kiribanAt && tier.kiribanAt.length > 0);
}

/**
 * The exact text of a beacon pack's commitment (`oripa-commitment-b1`): the multiset of lots, the キリ番 and
 * ラストワン rules, the selection's version, the randomness source, the receipts' key and the certificates.
 * @example beaconCommitmentDocument(terms).split('\n')[0] === 'oripa-commitment-b1'
 */
export function beaconCommitmentDocument(terms: BeaconPackTerms): string {
  const tiers = [...terms.tiers].sort(byId);
  if (tiers.length === 0) throw new CommitmentInputError('a pack has at least one tier');
  const ids = new Set(tiers.map((t) => t.id));
  if (ids.size !== tiers.length) throw new CommitmentInputError('tier ids must be unique');
  const lots = tiers.filter(isLotTier).reduce((sum, t) => sum + t.quantity, 0);
  if (lots < 1) throw new CommitmentInputError('a pack has at least one lot');
  const records = [
    BEACON_COMMITMENT_VERSION,
    `gacha ${str(terms.gachaId, 'gachaId')} ${str(terms.title, 'title')} ${int(terms.pricePerDraw, 'pricePerDraw')} ${int(lots, 'N')}`,
    `tiers ${tiers.length}`,
  ];
  for (const tier of tiers) {
    const numbers = tier.kiribanAt ?? [];
    for (let i = 1; i < numbers.length; i += 1) {
      if (!(numbers[i - 1]! < numbers[i]!)) throw new CommitmentInputError('kiribanAt must be strictly ascending');
    }
    records.push(
      `tier ${str(tier.id, 'tier.id')} ${str(tier.label, 'tier.label')} ${str(tier.cardName, 'tier.cardName')} ${int(tier.quantity, 'tier.quantity')} ${int(tier.conversionValue, 'tier.conversionValue')} ${tier.isLastOne ? 1 : 0} ${[numbers.length, ...numbers].map((n) => int(n, 'kiribanAt')).join(' ')}`,
    );
  }
  records.push(`select ${BEACON_SELECT_VERSION}`);
  const b = terms.beacon;
  records.push(
    `beacon ${str(hex(b.chainHash, 'beacon.chainHash', HEX32), 'chainHash')} ${str(b.scheme, 'beacon.scheme')} ${str(hex(b.publicKey, 'beacon.publicKey'), 'publicKey')} ${int(b.genesisTime, 'beacon.genesisTime')} ${int(b.period, 'beacon.period')}`,
  );
  records.push(`receipts ${RECEIPT_SIGNATURE} ${str(hex(terms.receiptKey, 'receiptKey', HEX32), 'receiptKey')}`);
  const certificates = [...terms.certificates].sort((x, y) => byId({ id: x.tierId }, { id: y.tierId }));
  records.push(`certificates ${certificates.length}`);
  for (const c of certificates) {
    if (!ids.has(c.tierId)) throw new CommitmentInputError(`certificate for an unknown tier ${c.tierId}`);
    records.push(
      `certificate ${str(c.tierId, 'certificate.tierId')} ${str(c.company, 'certificate.company')} ${str(c.number, 'certificate.number')} ${hex(c.photoSha256, 'certificate.photoSha256', HEX32)}`,
    );
  }
  return `${records.join('\n')}\n`;
}

/** The commitment: lower-case hex SHA-256 of the document's UTF-8 bytes. */
export function beaconCommitment(terms: BeaconPackTerms): string {
  return bytesToHex(sha256(utf8ToBytes(beaconCommitmentDocument(terms))));
}

/** A draw's receipt as the shop signs it (decision 081, §2). */
export interface DrawReceipt {
  gachaId: string;
  commitment: string;
  drawId: string;
  /** The member's pseudonym in this pack (16 lower-case hex characters, oripa-member-v1). */
  member: string;
  /** The slots claimed (the pack's positions), ascending; their count is the draw's number of lots. */
  slots: number[];
  /** The database's clock when the draw was accepted: YYYY-MM-DDThh:mm:ss.sssZ. */
  acceptedAt: string;
  /** The drand round whose randomness settles this draw (unless its head was published late). */
  round: number;
  /** The pack's latest head published before acceptance ('' and 0 when none was). */
  afterHead: string;
  afterRound: number;
}

/**
 * The exact text of a receipt (`oripa-receipt-v1`); its SHA-256 is the receipt's hash in the chain, its
 * UTF-8 bytes are what the shop signs.
 */
export function receiptDocument(r: DrawReceipt): string {
  if (!Array.isArray(r.slots) || r.slots.length < 1) throw new CommitmentInputError('a receipt has at least one slot');
  for (let i = 0; i < r.slots.length; i += 1) {
    int(r.slots[i]!, 'slot');
    if (r.slots[i]! < 1 || (i > 0 && !(r.slots[i - 1]! < r.slots[i]!)))
      throw new CommitmentInputError('slots must be positive and strictly ascending');
  }
  if (typeof r.acceptedAt !== 'string' || !ISO_MS.test(r.acceptedAt))
    throw new CommitmentInputError('acceptedAt must be YYYY-MM-DDThh:mm:ss.sssZ');
  if (r.afterHead !== '') hex(r.afterHead, 'afterHead', HEX32);
  if ((r.afterHead === '') !== (r.afterRound === 0))
    throw new CommitmentInputError('afterHead and afterRound go together');
  if (!(r.round >= 1)) throw new CommitmentInputError('round must be at least 1');
  return [
    RECEIPT_VERSION,
    `pack ${str(r.gachaId, 'gachaId')} ${str(hex(r.commitment, 'commitment', HEX32), 'commitment')}`,
    `draw ${str(r.drawId, 'drawId')} ${str(r.member, 'member')} ${int(r.slots.length, 'n')}`,
    `slots ${r.slots.length} ${r.slots.join(' ')}`,
    `accepted ${str(r.acceptedAt, 'acceptedAt')}`,
    `round ${int(r.round, 'round')}`,
    `after ${str(r.afterHead, 'afterHead')} ${int(r.afterRound, 'afterRound')}`,
  ]
    .map((line) => `${line}\n`)
    .join('');
}

/** The receipt's hash: lower-case hex SHA-256 of its document. */
export function receiptHash(r: DrawReceipt): string {
  return bytesToHex(sha256(utf8ToBytes(receiptDocument(r))));
}

/** The Ed25519 public key (hex) of a 32-byte secret key (hex). */
export function receiptPublicKey(secretKeyHex: string): string {
  return bytesToHex(ed25519.getPublicKey(hexToBytes(hex(secretKeyHex, 'receipt secret key', HEX32))));
}

/** The shop's signature of a receipt (deterministic: the same receipt gives the same bytes). */
export function signReceipt(r: DrawReceipt, secretKeyHex: string): string {
  return bytesToHex(
    ed25519.sign(utf8ToBytes(receiptDocument(r)), hexToBytes(hex(secretKeyHex, 'receipt secret key', HEX32))),
  );
}

/** Whether `signature` is the pack key's Ed25519 signature of this receipt (false, never a throw, on bad input). */
export function verifyReceiptSignature(r: DrawReceipt, signatureHex: string, publicKeyHex: string): boolean {
  try {
    if (!/^[0-9a-f]{128}$/.test(signatureHex) || !HEX32.test(publicKeyHex)) return false;
    return ed25519.verify(hexToBytes(signatureHex), utf8ToBytes(receiptDocument(r)), hexToBytes(publicKeyHex));
  } catch {
    return false;
  }
}

/**
 * head(r) = SHA-256("oripa-chain-v1" LF prevHead LF INT(r) LF hash₁ LF … hashₘ LF), the receipts of round r in
 * the order of their first slot; prevHead is '' for a pack's first head.
 */
export function headHash(prevHead: string, round: number, receiptHashes: readonly string[]): string {
  if (prevHead !== '') hex(prevHead, 'prevHead', HEX32);
  if (receiptHashes.length < 1) throw new CommitmentInputError('a head covers at least one receipt');
  const lines = [
    CHAIN_VERSION,
    prevHead,
    int(round, 'round'),
    ...receiptHashes.map((h) => hex(h, 'receipt hash', HEX32)),
  ];
  return bytesToHex(sha256(utf8ToBytes(lines.map((l) => `${l}\n`).join(''))));
}

/**
 * The round whose randomness settles a head of round r published at `publishedAtMs` (Unix ms): r itself when the
 * head was published at least HEAD_GUARD_MS before r's time, otherwise the first round whose time is at least
 * HEAD_GUARD_MS after the publication. Nothing can therefore be settled with randomness that existed when its
 * set of receipts was fixed.
 */
export function settlementRound(
  chain: { genesisTime: number; period: number },
  round: number,
  publishedAtMs: number,
): number {
  const timeOf = (r: number) => (chain.genesisTime + (r - 1) * chain.period) * 1000;
  if (publishedAtMs + HEAD_GUARD_MS <= timeOf(round)) return round;
  const after = publishedAtMs + HEAD_GUARD_MS - chain.genesisTime * 1000;
  let r = Math.max(round + 1, Math.ceil(after / (chain.period * 1000)) + 1);
  while (timeOf(r) < publishedAtMs + HEAD_GUARD_MS) r += 1;
  return r;
}

/** A tier's lots not yet settled, as the selection reads them. */
export interface RemainingTier {
  id: string;
  remaining: number;
}

/** One draw to settle: its id and its number of lots. */
export interface SettlingDraw {
  drawId: string;
  n: number;
}

function blockMessage(gachaId: string, drawId: string, k: number, block: number): Uint8Array {
  const head = utf8ToBytes(`${BEACON_SELECT_VERSION}\u0000${gachaId}\u0000${drawId}\u0000`);
  const out = new Uint8Array(head.length + 8);
  out.set(head);
  const view = new DataView(out.buffer);
  view.setUint32(head.length, k);
  view.setUint32(head.length + 4, block);
  return out;
}

/**
 * The index (0..m−1) of lot k of a draw: HMAC-SHA256(randomness, label 0 gachaId 0 drawId 0 u32(k) u32(block))
 * read as big-endian u32 values, block by block; the first value below 2³² − (2³² mod m) is taken mod m
 * (rejection sampling: every index equally likely).
 */
export function selectIndex(randomnessHex: string, gachaId: string, drawId: string, k: number, m: number): number {
  if (!Number.isSafeInteger(m) || m < 1 || m > 0xffffffff) throw new CommitmentInputError('m must be 1..2^32−1');
  const key = hexToBytes(hex(randomnessHex, 'randomness', HEX32));
  const limit = 2 ** 32 - (2 ** 32 % m);
  for (let block = 0; block <= 0xffffffff; block += 1) {
    const bytes = hmac(sha256, key, blockMessage(gachaId, drawId, k, block));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let offset = 0; offset < 32; offset += 4) {
      const u = view.getUint32(offset);
      if (u < limit) return u % m;
    }
  }
  throw new Error('selection stream exhausted');
}

/**
 * Settles the draws of one settlement round, in the order given (head order, then first slot): each lot k of
 * each draw takes the lot at selectIndex of the remaining multiset (tiers sorted by id bytes, each repeated by
 * its remaining count). Answers each draw's tier ids in k order, and what remains after.
 * @example settleDraws(randomness, 'pack-1', [{ id: 'a', remaining: 3 }, { id: 'b', remaining: 1 }], [{ drawId, n: 2 }])
 */
export function settleDraws(
  randomnessHex: string,
  gachaId: string,
  remaining: readonly RemainingTier[],
  draws: readonly SettlingDraw[],
): { tiers: string[][]; remaining: RemainingTier[] } {
  const pool = [...remaining]
    .filter((t) => t.remaining > 0)
    .sort(byId)
    .map((t) => ({ ...t }));
  let m = pool.reduce((sum, t) => sum + t.remaining, 0);
  const tiers: string[][] = [];
  for (const draw of draws) {
    const won: string[] = [];
    for (let k = 0; k < draw.n; k += 1) {
      if (m < 1) throw new CommitmentInputError('more lots settled than the pack holds');
      let index = selectIndex(randomnessHex, gachaId, draw.drawId, k, m);
      const tier = pool.find((t) => {
        if (index < t.remaining) return true;
        index -= t.remaining;
        return false;
      })!;
      tier.remaining -= 1;
      m -= 1;
      won.push(tier.id);
    }
    tiers.push(won);
  }
  return { tiers, remaining: pool };
}
