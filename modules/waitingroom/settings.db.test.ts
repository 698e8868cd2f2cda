// The waiting room's settings in the pack editor (decision 087): the 販売設定 step refuses a room without a cap,
// saves on/off, the window and the batch on the pack, and its audit entry (same transaction) records the change.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { ensureGenre } from '#tests/fixtures';
import { adminAuditLog, gachas } from '#db/schema';
import { commandLineOperator, createDraftAsOperator, updateDraftAsOperator } from '#modules/admin';
import { packSaleSchema } from '#modules/gacha';

const handle = useTestDatabase('waiting_room_settings', { poolSize: 2 });
const operator = commandLineOperator();

const sale = {
  pricePerDraw: 500,
  drawOptions: [1, 2],
  perMemberLimit: 2 as number | null,
  minRank: null,
  tags: [],
  sortOrder: 0,
  saleStartsAt: null,
  saleEndsAt: null,
  drawMode: 'sequence' as const,
  waitingRoom: true,
  waitingRoomWindowSeconds: 120,
  waitingRoomBatch: 25,
};

describe('the waiting room in the pack editor', () => {
  it('needs a cap, and is saved on the pack with the step’s audit entry', async () => {
    expect(packSaleSchema.safeParse({ ...sale, perMemberLimit: null }).error?.issues[0]).toMatchObject({
      path: ['perMemberLimit'],
      message: '待機列を使うときは1人あたりの上限を入力してください。',
    });
    expect(packSaleSchema.safeParse({ ...sale, waitingRoomWindowSeconds: 10 }).success).toBe(false);
    await ensureGenre(handle.db);
    const created = await createDraftAsOperator(handle.db, operator, {
      id: 'wr-editor',
      genreId: 'pokemon',
      title: '待機列つき',
      description: '',
    });
    expect(created.ok).toBe(true);
    const saved = await updateDraftAsOperator(handle.db, operator, 'wr-editor', packSaleSchema.parse(sale));
    expect(saved.ok).toBe(true);
    const [pack] = await handle.db.select().from(gachas).where(eq(gachas.id, 'wr-editor'));
    expect(pack).toMatchObject({
      waitingRoom: true,
      waitingRoomWindowSeconds: 120,
      waitingRoomBatch: 25,
      perMemberLimit: 2,
    });
    const [entry] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, 'wr-editor'), eq(adminAuditLog.action, 'pack.draft.update')));
    expect(JSON.stringify(entry)).toContain('"waitingRoom":true');
    expect(JSON.stringify(entry)).toContain('"waitingRoomBatch":25');
  });
});
