// The beacon mode on a running shop (decision 081): which drand chain new beacon packs commit to and where its
// rounds come from (the local stand-in on a sandbox shop, drand's relay otherwise), the signature of each
// receipt, and the settler every instance with jobs runs: at each round's close it closes the rounds that are
// due, a moment after each round's time it settles the heads that round settles, then it mails the members
// whose draw was settled after their reveal stopped waiting. Any number of instances may run it at once: the
// pack's round lock and the head row make each close and each settlement happen once.
import { QUICKNET, fetchBeacon, fetchChainInfo, type ChainInfo } from '#modules/beacon';
import {
  closeBeaconRounds,
  lateSettledReceipts,
  markReceiptsNotified,
  settleBeaconRounds,
  type BeaconOfRound,
} from '#modules/draw';
import { createPrivateKey, sign as cryptoSign } from 'node:crypto';
import { receiptDocument, receiptPublicKey, type DrawReceipt } from '#modules/fairness';
import { notifyMember } from '#modules/mailbox';
import { genreOfGacha, type BeaconPublishTerms } from '#modules/gacha';
import type { Database } from '#db/client';
import type { ShopConfig } from './config';
import type { Logger } from './logger';

/** A draw's reveal waits this long for its round inside the 演出; a settlement later than that is mailed. */
export const REVEAL_WAIT_MS = 12_000;

export interface BeaconService {
  /** The chain new packs commit to (its info verified against BEACON_CHAIN_HASH). */
  chain: ChainInfo;
  relayUrl: string;
  /** What publishPack needs for a beacon pack, or null when the shop has no receipt key (an https shop without BEACON_RECEIPT_KEY). */
  publishTerms: BeaconPublishTerms | null;
  /** Fetches and verifies a round against a pack's committed chain. */
  beaconOf: BeaconOfRound;
  /**
   * Ed25519 over the receipt's document by the key its pack committed to (`committedKey`), or null when this shop
   * does not hold that key (rotated, or no BEACON_RECEIPT_KEY).
   */
  signFor(receipt: DrawReceipt, committedKey: string): string | null;
  close(): Promise<void>;
}

/**
 * The beacon mode's service: on a sandbox shop without BEACON_RELAY_URL the drand stand-in (a fixed seeded key
 * and genesis, so its chain hash survives restarts and published packs stay settleable); otherwise the relay
 * with quicknet pinned, or the configured chain's info fetched and checked against its hash.
 * @example const beacon = await openBeacon(config, logger)
 */
export async function openBeacon(config: ShopConfig, logger: Logger): Promise<BeaconService> {
  let relayUrl = config.BEACON_RELAY_URL ?? 'https://api.drand.sh';
  let chain: ChainInfo = QUICKNET;
  let closeStandin = async () => undefined as void;
  if (!config.BEACON_RELAY_URL && config.paymentSandbox) {
    // A development tool: imported on this path only, never on a shop with the sandbox off.
    const { startDrandStandin } = await import('#devtools/standins/drand');
    const standin = await startDrandStandin({
      seed: 'oripa-sandbox',
      genesisTime: SANDBOX_GENESIS,
      beaconId: 'oripa-sandbox',
      host: '127.0.0.1',
    });
    relayUrl = standin.url;
    chain = standin.info;
    closeStandin = () => standin.close();
    logger.info({ url: standin.url, chainHash: standin.chainHash }, 'drand stand-in listening (sandbox beacon)');
  } else if (config.BEACON_CHAIN_HASH !== QUICKNET.hash) {
    const answer = await fetchChainInfo(
      { baseUrl: relayUrl, timeoutMs: config.BEACON_FETCH_TIMEOUT_MS },
      config.BEACON_CHAIN_HASH,
    );
    if (!answer.ok)
      throw new Error(`BEACON_CHAIN_HASH: the relay ${relayUrl} did not give the chain's info (${answer.failure})`);
    chain = answer.info;
  }
  const key = config.beaconReceiptKey;
  const publicKey = key ? receiptPublicKey(key) : null;
  const signers = receiptSigners([...(key ? [key] : []), ...config.BEACON_RECEIPT_KEYS_RETIRED]);
  const beaconOf: BeaconOfRound = async (source, round) => {
    const answer = await fetchBeacon(
      { baseUrl: relayUrl, timeoutMs: config.BEACON_FETCH_TIMEOUT_MS },
      {
        public_key: source.publicKey,
        period: source.period,
        genesis_time: source.genesisTime,
        hash: source.chainHash,
        groupHash: '0'.repeat(64),
        schemeID: source.scheme,
        metadata: { beaconID: '' },
      },
      round,
    );
    if (answer.ok) return answer.beacon;
    if (answer.failure === 'bad-beacon')
      logger.warn({ round, reason: answer.reason, detail: answer.detail }, 'beacon refused: it does not verify');
    return null;
  };
  return {
    chain,
    relayUrl,
    publishTerms: publicKey
      ? {
          source: {
            chainHash: chain.hash,
            scheme: chain.schemeID,
            publicKey: chain.public_key,
            genesisTime: chain.genesis_time,
            period: chain.period,
          },
          receiptKey: publicKey,
          closeMarginMs: config.BEACON_CLOSE_MARGIN_MS,
        }
      : null,
    beaconOf,
    signFor: (receipt, committedKey) => signers.get(committedKey)?.(receipt) ?? null,
    close: closeStandin,
  };
}

/**
 * Ed25519 signers of receipts by public key (node:crypto: the same RFC 8032 signatures as the browser's
 * @noble/curves, ~17× faster, which the public log's pages need: one signature per receipt per page).
 * @example receiptSigners([secret]).get(receiptPublicKey(secret))!(receipt) === signReceipt(receipt, secret)
 */
export function receiptSigners(secrets: readonly string[]): Map<string, (receipt: DrawReceipt) => string> {
  const signers = new Map<string, (receipt: DrawReceipt) => string>();
  for (const secret of secrets) {
    const key = createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(secret, 'hex')]),
      format: 'der',
      type: 'pkcs8',
    });
    const publicKey = receiptPublicKey(secret);
    if (!signers.has(publicKey))
      signers.set(publicKey, (receipt) =>
        cryptoSign(null, Buffer.from(receiptDocument(receipt), 'utf8'), key).toString('hex'),
      );
  }
  return signers;
}

/** PKCS #8's DER prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The sandbox chain's genesis: 2026-01-01T00:00:00Z (fixed, so the chain hash is the same at every start). */
const SANDBOX_GENESIS = 1_767_225_600;

/**
 * The settler: wakes at each round's close and a moment after each round's time (the period of the configured
 * chain), closes and settles what is due, and mails late settlements. Answers its stop.
 * @example const stop = startBeaconSettler(services, services.beacon)
 */
export function startBeaconSettler(
  services: {
    db: Database;
    logger: Logger;
    config: Pick<ShopConfig, 'PRIZE_DECISION_DAYS' | 'BEACON_CLOSE_MARGIN_MS'>;
  },
  beacon: BeaconService,
): () => Promise<void> {
  const { db, logger } = services;
  const options = {
    decisionDays: services.config.PRIZE_DECISION_DAYS,
    closeMarginMs: services.config.BEACON_CLOSE_MARGIN_MS,
  };
  const periodMs = beacon.chain.period * 1000;
  const genesisMs = beacon.chain.genesis_time * 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      await closeBeaconRounds(db);
      await settleBeaconRounds(db, beacon.beaconOf, { decisionDays: options.decisionDays });
      await mailLateSettlements(db);
    } catch (error) {
      logger.error({ err: error }, 'beacon settler: a tick failed (retried at the next one)');
    }
  };
  const schedule = () => {
    if (stopped) return;
    const now = Date.now();
    // The next event: a close (time − margin + 20 ms) or a round's time (+ 80 ms: the relay publishes it).
    const since = (now - genesisMs) % periodMs;
    const closeAt = (periodMs - options.closeMarginMs + 20) % periodMs;
    const roundAt = 80;
    const candidates = [closeAt, roundAt, closeAt + periodMs, roundAt + periodMs].filter((x) => x > since);
    const wait = Math.min(...candidates) - since;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, wait);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

/** Members whose draw settled after the reveal stopped waiting get one mail each (once: the dedupe key). */
export async function mailLateSettlements(db: Database, lateMs = REVEAL_WAIT_MS): Promise<number> {
  const late = await lateSettledReceipts(db, lateMs);
  for (const draw of late) {
    const genre = await genreOfGacha(db, draw.gachaId);
    const resultPath = genre ? `/gacha/${genre}/${draw.gachaId}/result/${draw.drawId}` : '/mypage?tab=prizes';
    await db.transaction(async (tx) => {
      await notifyMember(tx, {
        memberId: draw.memberId,
        category: 'draw_settled',
        dedupeKey: `draw-settled:${draw.drawId}`,
        subject: '抽選結果が確定しました',
        body: [
          {
            type: 'paragraph',
            text: '抽選中だったガチャの結果が確定しました。乱数ビーコンの公開が遅れたため、お待たせしました。',
            spans: [],
          },
          {
            type: 'paragraph',
            text: '結果を見る',
            spans: [{ start: 0, end: 5, type: 'hyperlink', data: { url: resultPath } }],
          },
        ],
      });
      await markReceiptsNotified(tx, [draw.drawId]);
    });
  }
  return late.length;
}
