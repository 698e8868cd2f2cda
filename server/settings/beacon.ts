// The beacon mode's settings (decision 081): the drand chain new beacon packs commit to, the relay the shop
// fetches its rounds from, the Ed25519 key that signs the receipts, the close margin and the fetch timeout.
// On a sandbox shop without a relay, the local drand stand-in (devtools/standins/drand) plays drand; on a real
// shop the League of Entropy's quicknet through drand's public relay is the default.
import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { declareSettings } from '#modules/kernel';
import { QUICKNET } from '#modules/beacon';

const hex32 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex characters (32 bytes)');

export const beaconSettings = declareSettings({
  title: 'Beacon-settled draws (drand)',
  shape: {
    BEACON_RELAY_URL: z.string().url().optional(),
    BEACON_CHAIN_HASH: hex32.default(QUICKNET.hash),
    BEACON_RECEIPT_KEY: hex32.optional(),
    BEACON_RECEIPT_KEYS_RETIRED: z
      .string()
      .optional()
      .transform((text) =>
        (text ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k.length > 0),
      )
      .pipe(z.array(hex32)),
    BEACON_CLOSE_MARGIN_MS: z.coerce.number().int().min(300).max(10_000).default(1000),
    BEACON_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
  },
  docs: {
    BEACON_RELAY_URL: {
      default: '`https://api.drand.sh`; on a sandbox shop the local drand stand-in',
      meaning:
        "a drand HTTP relay the shop fetches beacon rounds from (every beacon is verified against the pack's " +
        'committed chain key before it is used, so a relay can delay a settlement but never change one)',
    },
    BEACON_CHAIN_HASH: {
      default: "quicknet's hash (`52db9ba7…`)",
      meaning:
        'the drand chain new beacon packs commit to; quicknet (a round every 3 s, the League of Entropy) is pinned in ' +
        "the code, another chain's info is fetched from the relay at start and must derive this hash",
    },
    BEACON_RECEIPT_KEY: {
      default: 'generated once into `DATA_DIR/beacon-receipt-key` (not on https)',
      secret: true,
      meaning:
        "the Ed25519 secret key (64 hex) that signs beacon draws' receipts; its public key is committed by each beacon " +
        "pack. **Required on an https shop that publishes beacon packs**; make one with `node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"`. " +
        'Changing it signs only packs published afterwards (docs/decisions/081)',
    },
    BEACON_RECEIPT_KEYS_RETIRED: {
      default: 'none',
      secret: true,
      meaning:
        'earlier receipt keys (Ed25519 secrets, 64 hex each, comma-separated) after a rotation of BEACON_RECEIPT_KEY: ' +
        'they sign only the receipts of packs that committed to them (their public draw log and result pages), never ' +
        'a new pack. Keep a key here until every pack committed to it is sold out and its log archived',
    },
    BEACON_CLOSE_MARGIN_MS: {
      meaning:
        "a round closes (its set of draws fixed and its head published) this long before the round's time; it must " +
        "cover the shop's clock error (NTP) and the close's own time. Fixed per pack when it is published",
    },
    BEACON_FETCH_TIMEOUT_MS: {
      meaning: 'how long one fetch of a round may take (a relay holds a request until the round is due)',
    },
  },
});

/**
 * The receipt key, when not given, is generated once into DATA_DIR/beacon-receipt-key (mode 600) on a shop
 * that is not on https, so `npm start` can publish beacon packs with no secret in the repository.
 */
export function readOrCreateLocalReceiptKey(dataDir: string): string {
  const file = path.join(dataDir, 'beacon-receipt-key');
  fs.mkdirSync(dataDir, { recursive: true });
  const read = () => {
    try {
      const text = fs.readFileSync(file, 'utf8').trim();
      return /^[0-9a-f]{64}$/.test(text) ? text : undefined;
    } catch {
      return undefined;
    }
  };
  const existing = read();
  if (existing) return existing;
  try {
    // 'wx': two processes starting together keep the first one's key.
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch {
    // written by the other process
  }
  return read()!;
}
