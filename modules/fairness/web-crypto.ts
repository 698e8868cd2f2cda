// The reveal verifier over Web Crypto (crypto.subtle), for the pack page's 「このブラウザで検証する」: the same
// hashes as commitment.ts computes with node:crypto, handed to the same checkReveal (format.ts), so the
// browser's checks and details are verifyReveal's word for word. Async, because crypto.subtle is.
import {
  assertShuffleInput,
  canonicalLots,
  canonicalPackDocument,
  fisherYates,
  hexBytes,
  shuffleBlockMessage,
  type CommitmentInput,
  type RevealVerification,
} from './format';
import { parsePackReveal } from './reveal-parser';
import { checkReveal, commitmentInputOf, isSeed, shapeFailure, type Attempt } from './reveal-checks';

/** crypto.subtle's methods the verifier uses (the page passes the window's; tests may pass node's). */
export type Subtle = Pick<SubtleCrypto, 'digest' | 'importKey' | 'sign'>;

/** Blocks computed in one batch: enough parallel HMACs to keep crypto.subtle busy, few enough to stay small. */
const BLOCKS_PER_BATCH = 512;
/** Candidates a block holds: 32 bytes of HMAC-SHA256 as 4-byte integers. */
const CANDIDATES_PER_BLOCK = 8;

const defaultSubtle = (): Subtle => {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('この環境では Web Crypto（crypto.subtle）が使えません');
  return subtle;
};

const hex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The commitment (lower-case hex SHA-256 of the canonical document), as computeCommitment gives it.
 * @example await computeCommitmentInBrowser({ gachaId, title, pricePerDraw, tiers, seed, lots })
 */
export async function computeCommitmentInBrowser(
  input: CommitmentInput,
  subtle: Subtle = defaultSubtle(),
): Promise<string> {
  return hex(await subtle.digest('SHA-256', new TextEncoder().encode(canonicalPackDocument(input))));
}

/**
 * The seed's shuffle of `tierIds`, as shuffleLots gives it. The stream's blocks are HMACs computed ahead in
 * parallel batches (crypto.subtle has no synchronous form); the shuffle then reads them in order. Rejections
 * are rare (under 1 in 4,000 candidates), so the first estimate almost always suffices; if it does not, the
 * shuffle runs again with more blocks, which gives the same order because the stream is deterministic.
 * @example const lots = await shuffleLotsInBrowser(seed, canonicalLots(tiers));
 */
export async function shuffleLotsInBrowser(
  seed: string,
  tierIds: string[],
  subtle: Subtle = defaultSubtle(),
): Promise<string[]> {
  assertShuffleInput(seed, tierIds);
  const key = await subtle.importKey('raw', hexBytes(seed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const candidates: number[] = [];
  let blocks = 0;
  const extendTo = async (wantedBlocks: number) => {
    while (blocks < wantedBlocks) {
      const batch = Array.from({ length: Math.min(BLOCKS_PER_BATCH, wantedBlocks - blocks) }, (_, k) =>
        subtle.sign('HMAC', key, shuffleBlockMessage(blocks + k)),
      );
      for (const digest of await Promise.all(batch)) {
        const view = new DataView(digest);
        for (let k = 0; k < CANDIDATES_PER_BLOCK; k += 1) candidates.push(view.getUint32(k * 4));
      }
      blocks += batch.length;
    }
  };
  const EXHAUSTED = Symbol('exhausted');
  // n − 1 candidates without rejections, plus a margin for them.
  let wantedBlocks = Math.ceil(Math.max(tierIds.length - 1, 0) / CANDIDATES_PER_BLOCK) + 4;
  for (;;) {
    await extendTo(wantedBlocks);
    let read = 0;
    try {
      return fisherYates(tierIds, () => {
        if (read === candidates.length) throw EXHAUSTED;
        return candidates[read++];
      });
    } catch (error) {
      if (error !== EXHAUSTED) throw error;
      wantedBlocks *= 2;
    }
  }
}

const attempt = async <T>(compute: () => Promise<T>): Promise<Attempt<T>> => {
  try {
    return { ok: true, value: await compute() };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
};

/**
 * Verifies a reveal file in the browser: verifyReveal's checks, names, details and verdict, over Web Crypto.
 * Never rejects (except without crypto.subtle at all); `ok` is true only when every check passes.
 * @example const { ok, checks } = await verifyRevealInBrowser(JSON.parse(text));
 */
export async function verifyRevealInBrowser(
  reveal: unknown,
  subtle: Subtle = defaultSubtle(),
): Promise<RevealVerification> {
  const parsed = parsePackReveal(reveal);
  if (!parsed.ok) return shapeFailure(parsed.errors);
  const { seed, tiers } = parsed.reveal;
  const [commitment, order] = await Promise.all([
    attempt(() => computeCommitmentInBrowser(commitmentInputOf(parsed.reveal), subtle)),
    isSeed(seed) ? attempt(() => shuffleLotsInBrowser(seed, canonicalLots(tiers), subtle)) : Promise.resolve(null),
  ]);
  return checkReveal(parsed.reveal, { commitment, order });
}

/** A reveal file's text read as JSON (a leading BOM allowed, as verify-pack does), or why it cannot be. */
export function readRevealText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (error) {
    return { ok: false, error: `JSON として読み込めません（${(error as Error).message}）` };
  }
}
