// /admin/farm over HTTP (decision 044): farm:write pauses (only from the confirmation) and resumes the
// farm, saves the rules and a seed with per-field Japanese errors, refuses deleting a planted seed; each
// change audited. reports:read only reads the economy view (and is refused any change); a staff member
// with neither gets 403.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, farmActions, farmRules, farmSeeds } from '#db/schema';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  // Other files play the farm on the same shop: never leave it paused, whatever failed above.
  if (handle) await handle.db.update(farmRules).set({ paused: false }).where(eq(farmRules.id, 1));
  await handle?.close();
});

async function staffWith(label: string, permissions: string[]) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'farm-admin-pass-1', agreeToTerms: 'on' });
  await grantStaff(handle!.db, email, permissions);
  return cookieFrom(page.headers);
}

const pausedNow = async () =>
  (await handle!.db.select({ paused: farmRules.paused }).from(farmRules).where(eq(farmRules.id, 1)))[0]!.paused;

describe.skipIf(!databaseUrl)(
  `the farm in the admin area${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('refuses staff without farm:write or reports:read, and lets reports:read only read', async () => {
      const nobody = await staffWith('farm-nobody', ['orders:read']);
      const refused = await get('/admin/farm', { cookie: nobody });
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('ファームの設定・種・一時停止');

      const reader = await staffWith('farm-reader', ['reports:read']);
      const page = await get('/admin/farm?from=2026-11-01&to=2026-11-03', { cookie: reader });
      expect(page.status).toBe(200);
      expect(page.body).toContain('日別の経済（日本時間）');
      expect(page.body).toContain('2026-11-02');
      expect(page.body).not.toContain('ルールを保存する');
      const change = await postForm('/admin/farm', { intent: 'resume' }, { cookie: reader });
      expect(change.status).toBe(403);

      // A range longer than 92 days: a Japanese message and 400, the default range shown instead.
      const tooLong = await get('/admin/farm?from=2026-01-01&to=2026-12-31', { cookie: reader });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toContain('92日以内');
    });

    it('pauses only after the confirmation, resumes, and audits each switch', async () => {
      const cookie = await staffWith('farm-writer', ['farm:write']);
      const first = await get('/admin/farm', { cookie });
      expect(first.status).toBe(200);
      expect(first.body).toContain('現在の状態：');
      expect(first.body).toContain('稼働中');

      const unasked = await postForm('/admin/farm', { form: 'pause', intent: 'pause' }, { cookie });
      expect(unasked.status).toBe(400);
      expect(unasked.body).toContain('一時停止は確認画面から行ってください。');
      expect(await pausedNow()).toBe(false);

      const start = await handle!.db
        .select({ id: adminAuditLog.id })
        .from(adminAuditLog)
        .orderBy(asc(adminAuditLog.id))
        .then((rows) => rows.at(-1)?.id ?? 0);
      try {
        const paused = await postForm('/admin/farm', { form: 'pause', intent: 'pause', confirmed: 'yes' }, { cookie });
        expect(paused.status).toBe(200);
        expect(paused.body).toContain('ファームを一時停止しました。');
        expect(paused.body).toContain('一時停止中');
        expect(await pausedNow()).toBe(true);
      } finally {
        const resumed = await postForm('/admin/farm', { form: 'pause', intent: 'resume' }, { cookie });
        expect(resumed.status).toBe(200);
        expect(resumed.body).toContain('ファームを再開しました。');
      }
      expect(await pausedNow()).toBe(false);
      const entries = (
        await handle!.db
          .select({ id: adminAuditLog.id, action: adminAuditLog.action, permission: adminAuditLog.permission })
          .from(adminAuditLog)
          .where(eq(adminAuditLog.targetType, 'farm'))
          .orderBy(asc(adminAuditLog.id))
      ).filter((e) => e.id > start);
      expect(entries.map((e) => [e.action, e.permission])).toEqual([
        ['farm.pause', 'farm:write'],
        ['farm.resume', 'farm:write'],
      ]);
    });

    it('saves the rules, with a message per field for bad ones, and audits the change', async () => {
      const cookie = await staffWith('farm-rules', ['farm:write']);
      const [before] = await handle!.db.select().from(farmRules).where(eq(farmRules.id, 1));
      const form = {
        intent: 'rules',
        plotUnlockLevels: before!.plotUnlockLevels.join(', '),
        waterCooldownMinutes: String(before!.waterCooldownMinutes),
        waterSpeedupPercent: String(before!.waterSpeedupPercent),
        witherAfterMinutes: String(before!.witherAfterMinutes),
        dailyCoinCap: String(before!.dailyCoinCap),
        friendWaterCoins: String(before!.friendWaterCoins),
      };
      const bad = await postForm(
        '/admin/farm',
        { ...form, plotUnlockLevels: '1, 1, 5, 3', witherAfterMinutes: '1e3', friendWaterCoins: '101' },
        { cookie },
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('畑の解放レベルは小さい順（同じ値は可）に並べてください。');
      expect(bad.body).toContain('枯れるまでの時間は整数で入力してください。');
      expect(bad.body).toContain('友達の水やりの報酬は0〜100コインです。');
      try {
        // The same rules saved (other files play this shop's farm): the change is the audit entry itself.
        const saved = await postForm('/admin/farm', { ...form, plotUnlockLevels: '１，1、1 1,5,10,20,30' }, { cookie });
        expect(saved.status).toBe(200);
        expect(saved.body).toContain('ファームのルールを保存しました。');
        const [after] = await handle!.db.select().from(farmRules).where(eq(farmRules.id, 1));
        expect(after!.plotUnlockLevels).toEqual([1, 1, 1, 1, 5, 10, 20, 30]);
        expect(after!.updatedBy).toContain('farm-rules');
      } finally {
        await handle!.db
          .update(farmRules)
          .set({ plotUnlockLevels: before!.plotUnlockLevels })
          .where(eq(farmRules.id, 1));
      }
      const [entry] = await handle!.db
        .select()
        .from(adminAuditLog)
        .where(eq(adminAuditLog.action, 'farm.rules'))
        .orderBy(desc(adminAuditLog.id))
        .limit(1);
      expect(entry).toMatchObject({ permission: 'farm:write', targetType: 'farm', targetId: 'rules' });
      expect(entry!.actorLabel).toContain('farm-rules');
    });

    it('edits a seed with field errors in Japanese, stops it, and refuses deleting a planted one', async () => {
      const cookie = await staffWith('farm-seeds', ['farm:write']);
      const id = `s${Date.now().toString(36)}`;
      const fields = {
        id,
        name: 'テスト豆',
        art: 'corn',
        growMinutes: '90',
        rewardCoins: '3',
        unlockLevel: '2',
        sort: '99',
        active: 'on',
      };
      const made = await postForm('/admin/farm', { intent: 'seed-create', ...fields }, { cookie });
      expect(made.status).toBe(200);
      expect(made.body).toContain('種「テスト豆」を追加しました。');

      const bad = await postForm(
        '/admin/farm',
        { intent: 'seed-save', ...fields, growMinutes: '1441', rewardCoins: 'たくさん' },
        { cookie },
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('育つ時間は30〜1,440分です。');
      expect(bad.body).toContain('収穫の報酬は整数で入力してください。');

      const { active: _on, ...stopped } = fields;
      const saved = await postForm(
        '/admin/farm',
        { intent: 'seed-save', ...stopped, name: 'テスト大豆', growMinutes: '120' },
        { cookie },
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toContain('種「テスト大豆」を保存しました（停止中：会員は植えられません）。');
      const [row] = await handle!.db.select().from(farmSeeds).where(eq(farmSeeds.id, id));
      expect(row).toMatchObject({ name: 'テスト大豆', growMinutes: 120, active: false });

      // A member planted it once: deleting is refused with what to do instead, and the seed stays.
      await handle!.db
        .insert(farmActions)
        .values({ memberId: 'farm-admin-test', kind: 'plant', jstDay: '2026-11-24', plotNo: 1, seedId: id });
      const unasked = await postForm('/admin/farm', { intent: 'seed-delete', id }, { cookie });
      expect(unasked.status).toBe(400);
      const planted = await postForm('/admin/farm', { intent: 'seed-delete', id, confirmed: 'yes' }, { cookie });
      expect(planted.status).toBe(409);
      expect(planted.body).toContain('すでに会員が植えたことがあるため削除できません');
      expect(await handle!.db.select().from(farmSeeds).where(eq(farmSeeds.id, id))).toHaveLength(1);

      // A seed nobody planted is deleted.
      const spare = `${id}-x`;
      expect((await postForm('/admin/farm', { intent: 'seed-create', ...fields, id: spare }, { cookie })).status).toBe(
        200,
      );
      const deleted = await postForm('/admin/farm', { intent: 'seed-delete', id: spare, confirmed: 'yes' }, { cookie });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toContain('種「テスト豆」を削除しました。');

      const audit = await handle!.db
        .select({ action: adminAuditLog.action, targetId: adminAuditLog.targetId })
        .from(adminAuditLog)
        .where(inArray(adminAuditLog.targetId, [id, spare]))
        .orderBy(asc(adminAuditLog.id));
      expect(audit).toEqual([
        { action: 'farm.seed.create', targetId: id },
        { action: 'farm.seed.update', targetId: id },
        { action: 'farm.seed.create', targetId: spare },
        { action: 'farm.seed.delete', targetId: spare },
      ]);
      // Leave the shop's member-facing seed table as it was.
      await handle!.db.delete(farmActions).where(eq(farmActions.seedId, id));
      await handle!.db.delete(farmSeeds).where(eq(farmSeeds.id, id));
    });
  },
);
