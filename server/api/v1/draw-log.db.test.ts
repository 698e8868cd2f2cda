// GET /api/v1/gachas/{gachaId}/draw-log on a real database: a beacon pack's public log, page by page, public
// and briefly cacheable, verified whole by the same verifier as verify-pack; 400 for bad paging, 404 for an
// unknown pack and for a pack that is not a beacon pack, each with its Japanese message.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createApiV1 } from './index';
import { beaconLogPageSchema } from './draw-log';
import { createApiTestServices, requestJson } from './testing';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { queryRows } from '#db/client';
import { closeBeaconRounds, DRAW_LOG_MAX_PAGE, drawLots, settleBeaconRounds } from '#modules/draw';
import { fetchBeacon } from '#modules/beacon';
import { receiptPublicKey, verifyBeaconLog, type DrawReceipt } from '#modules/fairness';
import { startDrandStandin, type DrandStandin } from '#devtools/standins/drand';
import type { ShopServices } from '#server/services';
import { receiptSigners, type BeaconService } from '#server/beacon';

const RECEIPT_SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const CLOSE_MARGIN_MS = 700;

let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;
let drand: DrandStandin;
let gachaId: string;

const roundTime = (round: number) => (drand.info.genesis_time + (round - 1) * drand.info.period) * 1000;
const sleepUntil = async (at: number) => {
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.min(250, at - Date.now() + 5)));
};

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('api_draw_log'));
  // Only the receipt signature of the beacon service is read by the draw log: the shop's own signers.
  const signers = receiptSigners([RECEIPT_SECRET]);
  services.beacon = {
    signFor: (receipt: DrawReceipt, committedKey: string) => signers.get(committedKey)?.(receipt) ?? null,
  } as Partial<BeaconService> as BeaconService;
  api = createApiV1(services);
  drand = await startDrandStandin({ seed: 'api-draw-log', period: 1 });
  const db = services.db;
  gachaId = await createPublishedPack(db, {
    lots: 10,
    price: 100,
    drawOptions: [1, 2],
    lastOne: true,
    beacon: {
      source: {
        chainHash: drand.info.hash,
        scheme: drand.info.schemeID,
        publicKey: drand.info.public_key,
        genesisTime: drand.info.genesis_time,
        period: drand.info.period,
      },
      receiptKey: receiptPublicKey(RECEIPT_SECRET),
      closeMarginMs: CLOSE_MARGIN_MS,
    },
  });
  const member = await createMemberWithCoins(db, { paid: 10_000 });
  for (const count of [2, 1, 2]) {
    const outcome = await drawLots(db, {
      memberId: member,
      gachaId,
      count,
      idempotencyKey: randomUUID(),
      decisionDays: 7,
    });
    if (!outcome.ok) throw new Error(outcome.code);
  }
  const [open] = await queryRows<{ round: number }>(
    db,
    sql`select max(round)::int as round from draw_receipts where gacha_id = ${gachaId}`,
  );
  await sleepUntil(roundTime(open!.round) - CLOSE_MARGIN_MS + 20);
  await closeBeaconRounds(db);
  const [head] = await queryRows<{ settle: number }>(
    db,
    sql`select max(settle_round)::int as settle from draw_beacon_heads where gacha_id = ${gachaId}`,
  );
  await sleepUntil(roundTime(head!.settle) + 20);
  await settleBeaconRounds(
    db,
    async (_terms, round) => {
      const answer = await fetchBeacon({ baseUrl: drand.url, timeoutMs: 10_000 }, drand.info, round);
      return answer.ok ? answer.beacon : null;
    },
    { decisionDays: 7 },
  );
}, scaledTimeout(120_000));

afterAll(async () => {
  await drand?.close();
  await close?.();
});

describe('GET /gachas/{gachaId}/draw-log', () => {
  it('pages through a beacon pack by sequence number; the pages verify whole', async () => {
    const pages = [];
    for (let after: number | null = 0; after !== null && pages.length < 10;) {
      const response = await requestJson(api, `/gachas/${gachaId}/draw-log?after=${after}&limit=1`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=1');
      expect(beaconLogPageSchema.safeParse(response.json).success).toBe(true);
      expect(response.json.items).toHaveLength(1);
      expect(response.json.items[0].seq).toBe(after + 1);
      pages.push(response.json);
      after = response.json.nextAfter;
    }
    expect(pages).toHaveLength(3);
    expect(pages.flatMap((p) => p.items.map((e: { settled: boolean }) => e.settled))).toEqual([true, true, true]);
    expect(pages[2].remaining).toMatchObject({ settledLots: 5, lots: 5, unclaimedSlots: 5 });
    const verification = verifyBeaconLog(pages, { trustedChains: [drand.info] });
    expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verification.ok).toBe(true);
    // The default page holds all three; only pseudonyms, never a member id.
    const whole = await requestJson(api, `/gachas/${gachaId}/draw-log`);
    expect(whole.json.items).toHaveLength(3);
    expect(whole.json.nextAfter).toBeNull();
    expect(whole.text).not.toMatch(/"memberId"|"member_id"/);
  });

  it('answers bad paging with 400 and a Japanese message per field', async () => {
    for (const query of ['after=-1', 'after=abc', 'limit=0', `limit=${DRAW_LOG_MAX_PAGE + 1}`, 'after=1.5']) {
      const response = await requestJson(api, `/gachas/${gachaId}/draw-log?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.error.code).toBe('VALIDATION_FAILED');
      const field = query.split('=')[0]!;
      expect(response.json.error.details.fields[field]).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
  });

  it('answers 404 for an unknown pack and for a pack that is not a beacon pack', async () => {
    const unknown = await requestJson(api, '/gachas/no-such-pack/draw-log');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 'GACHA_NOT_FOUND', message: 'ガチャが見つかりません。' });
    const sequence = await requestJson(api, '/gachas/stellar-pokemon-001/draw-log');
    expect(sequence.status).toBe(404);
    expect(sequence.json.error.code).toBe('DRAW_LOG_NOT_FOUND');
    expect(sequence.json.error.message).toContain('ビーコン抽選');
  });
});
