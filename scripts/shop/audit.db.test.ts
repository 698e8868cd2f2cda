// The operators' command line writes the audit log: each command that changes something leaves its
// entry (action, target, before and after, the command line as actor) in the change's own
// transaction, and a refused or failed command leaves neither the change nor an entry.
import { describe, it, expect, beforeAll } from 'vitest';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { eq, gt, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, ensureGenre, TEST_RULES } from '#tests/fixtures';
import { digestOf } from '#tests/audit-digest';
import { adminAuditLog, gachas, memberNotes, purchaseProfiles, staffPermissions, users } from '#db/schema';
import { getBalance, listLedgerEntries } from '#modules/wallet';
import { ensureDefaultCoinPacks, type PaymentGateway } from '#modules/payments';
import { commandRunner } from './testing';

const examplePack = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/pack.json');
const handle = useTestDatabase('cli-audit', { poolSize: 2 });
let gateway: PaymentGateway | undefined;

const run = commandRunner(
  () => handle.db,
  () => gateway,
);

/** The entries a step writes, oldest first (the log is append-only, so ids only grow). */
async function entriesOf(step: () => Promise<unknown>) {
  const [last] = await handle.db
    .select({ id: sql<number>`coalesce(max(${adminAuditLog.id}), 0)::int` })
    .from(adminAuditLog);
  let failure: unknown = null;
  await step().catch((error: unknown) => (failure = error));
  const entries = await handle.db
    .select()
    .from(adminAuditLog)
    .where(gt(adminAuditLog.id, last!.id))
    .orderBy(adminAuditLog.id);
  return { entries, failure };
}

/** An error's message with its causes' (Drizzle wraps the database's error in its own). */
const causes = (error: unknown): string =>
  error instanceof Error ? `${error.message} ${causes((error as { cause?: unknown }).cause)}` : '';

/** A pack definition like the example's, under a fresh id. */
async function packFile(id: string): Promise<string> {
  const { writeFile } = await import('node:fs/promises');
  const os = await import('node:os');
  const definition = JSON.parse(await readFile(examplePack, 'utf8')) as Record<string, unknown>;
  const file = path.join(os.tmpdir(), `${id}.json`);
  await writeFile(file, JSON.stringify({ ...definition, id }));
  return file;
}

const newMember = async (prefix: string) => {
  const [{ members }] = (await run('members:create', '--count', '1', '--prefix', prefix)) as [
    { members: { id: string }[] },
  ];
  return members[0]!.id;
};

beforeAll(async () => {
  await ensureGenre(handle.db, 'pokemon');
  await ensureDefaultCoinPacks(handle.db);
});

describe('npm run shop writes the audit log', () => {
  it('packs: create, publish and end each leave their entry; a refusal leaves none', async () => {
    const id = `audit-${randomUUID().slice(0, 8)}`;
    const file = await packFile(id);
    const created = await entriesOf(() => run('pack:create', file));
    expect(created.failure).toBeNull();
    expect(created.entries).toHaveLength(1);
    expect(created.entries[0]).toMatchObject({
      action: 'pack.create',
      permission: 'packs:write',
      targetType: 'gacha',
      targetId: id,
      actorId: null,
      after: { status: 'draft', totalLots: 100 },
    });
    expect(created.entries[0]!.actorLabel).toMatch(/^cli:/);

    const again = await entriesOf(() => run('pack:create', file));
    expect(String(again.failure)).toMatch(/既にあります/);
    expect(again.entries).toEqual([]);

    // Not on the shelf: publishing is refused in Japanese, naming each short card; nothing recorded.
    const short = await entriesOf(() => run('pack:publish', id));
    expect(String(short.failure)).toMatch(/^Error: 在庫が足りないため公開できません（何も変更していません）: /);
    expect(String(short.failure)).toContain('「星詠みのドラゴン SAR」必要 1枚／在庫 0枚（1枚不足）');
    expect(short.entries).toEqual([]);
    const received = await entriesOf(() => run('stock:receive', '--pack', file));
    expect(received.failure).toBeNull();
    expect(received.entries.map((e) => e.action)).toEqual(Array(received.entries.length).fill('stock.receive'));
    expect(received.entries[0]).toMatchObject({
      permission: 'packs:write',
      targetType: 'stock_card',
      after: { cardName: '星詠みのドラゴン SAR', count: 1 },
    });

    const published = await entriesOf(() => run('pack:publish', id));
    expect(published.entries.map((e) => [e.action, e.targetId])).toEqual([['pack.publish', id]]);
    expect(published.entries[0]).toMatchObject({ before: { status: 'draft' }, after: { status: 'on_sale' } });
    expect((await entriesOf(() => run('pack:publish', id))).entries).toEqual([]);

    const ended = await entriesOf(() => run('pack:end', id));
    expect(ended.entries.map((e) => [e.action, e.targetId])).toEqual([['pack.end', id]]);
    expect(ended.entries[0]).toMatchObject({ before: { status: 'on_sale' }, after: { status: 'ended' } });
    // Ending an ended pack changes nothing: no entry.
    expect((await entriesOf(() => run('pack:end', id))).entries).toEqual([]);
    expect((await entriesOf(() => run('pack:end', 'no-such-pack'))).entries).toEqual([]);
  });

  it('pack:create --publish records both steps, in one transaction', async () => {
    const id = `audit-${randomUUID().slice(0, 8)}`;
    const file = await packFile(id);
    await run('stock:receive', '--pack', file);
    const both = await entriesOf(async () => run('pack:create', file, '--publish'));
    expect(both.entries.map((e) => [e.action, e.targetId])).toEqual([
      ['pack.create', id],
      ['pack.publish', id],
    ]);
  });

  it('coins:grant records the grant once; a replay and a refused key record nothing', async () => {
    const member = await newMember('grant');
    const granted = await entriesOf(() =>
      run('coins:grant', '--member', member, '--amount', '300', '--reason', 'お詫び', '--key', `k-${member}`),
    );
    expect(granted.entries).toHaveLength(1);
    expect(granted.entries[0]).toMatchObject({
      action: 'coins.grant',
      permission: 'coins:grant',
      targetType: 'member',
      targetId: member,
      before: { free: 0, paid: 0 },
      after: { free: 300, paid: 0, kind: 'free', amount: 300, memo: digestOf('お詫び') },
    });
    const replay = await entriesOf(() =>
      run('coins:grant', '--member', member, '--amount', '300', '--reason', 'お詫び', '--key', `k-${member}`),
    );
    expect(replay.failure).toBeNull();
    expect(replay.entries).toEqual([]);
    const conflict = await entriesOf(() =>
      run('coins:grant', '--member', member, '--amount', '500', '--reason', 'お詫び', '--key', `k-${member}`),
    );
    expect(String(conflict.failure)).toMatch(/別の付与/);
    expect(conflict.entries).toEqual([]);
    const unknown = await entriesOf(() =>
      run('coins:grant', '--member', 'nobody@example.invalid', '--amount', '5', '--reason', 'x'),
    );
    expect(unknown.failure).not.toBeNull();
    expect(unknown.entries).toEqual([]);
    expect((await getBalance(handle.db, member)).free).toBe(300);
  });

  it('an audit entry that cannot be written takes the change with it', async () => {
    const member = await newMember('atomic');
    // A trigger that refuses this one entry: the grant in the same transaction must roll back.
    await handle.db.execute(
      sql.raw(`create or replace function audit_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.target_id = '${member}' then raise exception 'audit refused by the test'; end if;
        return new;
      end $$`),
    );
    await handle.db.execute(
      sql.raw(
        'create trigger audit_test_refuse before insert on admin_audit_log for each row execute function audit_test_refuse()',
      ),
    );
    try {
      const failed = await entriesOf(() =>
        run('coins:grant', '--member', member, '--amount', '300', '--reason', 'お詫び'),
      );
      expect(causes(failed.failure)).toMatch(/audit refused by the test/);
      expect(failed.entries).toEqual([]);
      const aged = await entriesOf(() => run('members:age', '--member', member, '--minor'));
      expect(causes(aged.failure)).toMatch(/audit refused by the test/);
    } finally {
      await handle.db.execute(sql.raw('drop trigger audit_test_refuse on admin_audit_log'));
      await handle.db.execute(sql.raw('drop function audit_test_refuse()'));
    }
    expect(await getBalance(handle.db, member)).toMatchObject({ free: 0, paid: 0 });
    expect((await listLedgerEntries(handle.db, member)).items).toEqual([]);
    expect(await handle.db.select().from(purchaseProfiles).where(eq(purchaseProfiles.memberId, member))).toEqual([]);
  });

  it('coinpacks:set records the pack before and after; a refused line records nothing', async () => {
    const set = (...more: string[]) =>
      run('coinpacks:set', '--id', 'audit-700', '--name', '700コイン', '--price', '700', '--paid', '700', ...more);
    const first = await entriesOf(() => set());
    expect(first.entries).toHaveLength(1);
    expect(first.entries[0]).toMatchObject({
      action: 'coinpack.set',
      permission: 'packs:write',
      targetType: 'coin_pack',
      targetId: 'audit-700',
      before: null,
      after: { priceJpy: 700, active: true },
    });
    const second = await entriesOf(() => set('--inactive'));
    expect(second.entries[0]).toMatchObject({ before: { active: true }, after: { active: false } });
    const refused = await entriesOf(() => set('--price', '0x10'));
    expect(refused.failure).not.toBeNull();
    expect(refused.entries).toEqual([]);
  });

  it('members: create, age and clear-hold each leave their entry; a hold not there records nothing', async () => {
    const made = await entriesOf(() => run('members:create', '--count', '2', '--coins', '100', '--prefix', 'batch'));
    expect(made.entries).toHaveLength(1);
    expect(made.entries[0]).toMatchObject({
      action: 'members.create',
      permission: 'members:write',
      targetType: 'member',
      targetId: null,
      after: { count: 2, coins: 100, prefix: 'batch' },
    });
    expect((made.entries[0]!.after as { members: string[] }).members).toHaveLength(2);

    const member = await createMember(handle.db);
    const aged = await entriesOf(() => run('members:age', '--member', member, '--minor'));
    expect(aged.entries.map((e) => [e.action, e.targetId])).toEqual([['member.age', member]]);
    expect(aged.entries[0]).toMatchObject({ before: { declaredMinor: null }, after: { declaredMinor: true } });
    expect((await entriesOf(() => run('members:age', '--member', member))).entries).toEqual([]);

    expect((await entriesOf(() => run('members:clear-hold', '--member', member))).entries).toEqual([]);
    await handle.db
      .update(purchaseProfiles)
      .set({ holdReason: 'chargeback_unrecovered', holdAt: new Date() })
      .where(eq(purchaseProfiles.memberId, member));
    const cleared = await entriesOf(() => run('members:clear-hold', '--member', member));
    expect(cleared.entries.map((e) => [e.action, e.targetId])).toEqual([['member.hold.clear', member]]);
    expect(cleared.entries[0]).toMatchObject({ before: { hold: 'chargeback_unrecovered' }, after: { hold: null } });
  });

  it('staff:grant records roles and permissions through the admin module; a bad line records nothing', async () => {
    const first = await newMember('staff-a');
    const second = await newMember('staff-b');
    const granted = await entriesOf(() => run('staff:grant', '--member', first));
    expect(granted.entries).toHaveLength(1);
    expect(granted.entries[0]).toMatchObject({
      action: 'staff.permissions',
      permission: 'staff:write',
      targetType: 'member',
      targetId: first,
      before: { role: 'user' },
      after: { role: 'admin', permissions: [] },
    });
    const staff = await entriesOf(() =>
      run('staff:grant', '--member', second, '--role', 'staff', '--permissions', 'shipping:read,shipping:write'),
    );
    expect(staff.entries[0]).toMatchObject({
      action: 'staff.permissions',
      targetId: second,
      after: { role: 'staff', permissions: ['shipping:read', 'shipping:write'] },
    });
    const rows = await handle.db.select().from(staffPermissions).where(eq(staffPermissions.memberId, second));
    expect(rows.map((r) => r.permission).sort()).toEqual(['shipping:read', 'shipping:write']);

    for (const bad of [
      ['--role', 'staff'],
      ['--role', 'owner'],
      ['--role', 'staff', '--permissions', 'shipping:fly'],
      ['--permissions', 'shipping:read'],
      ['--revoke', '--role', 'admin'],
    ]) {
      const refused = await entriesOf(() => run('staff:grant', '--member', second, ...bad));
      expect(refused.failure, bad.join(' ')).not.toBeNull();
      expect(refused.entries, bad.join(' ')).toEqual([]);
    }
    const revoked = await entriesOf(() => run('staff:grant', '--member', second, '--revoke'));
    expect(revoked.entries.map((e) => [e.action, e.targetId])).toEqual([['staff.revoke', second]]);
    const [row] = await handle.db.select({ role: users.role }).from(users).where(eq(users.id, second));
    expect(row!.role).toBe('user');
  });

  it('orders:refund records the refund with the order before and after; an unknown order records nothing', async () => {
    const { sandboxHarness, checkoutAsMember } = await import('#modules/payments/testing');
    const { syncOrder } = await import('#modules/payments');
    const member = await createMember(handle.db);
    const sandbox = sandboxHarness(handle.db);
    await run('members:age', '--member', member, '--adult');
    const { orderId, redirectUrl } = await checkoutAsMember(handle.db, sandbox.gateway, member, 'coin-1000');
    const back = await sandbox.decide(redirectUrl, 'approve');
    await syncOrder(handle.db, sandbox.gateway, orderId, {
      rules: TEST_RULES.payments,
      returnParams: back.searchParams,
    });
    gateway = sandbox.gateway;
    try {
      const unknown = await entriesOf(() => run('orders:refund', randomUUID(), '--reason', '誤り'));
      expect(unknown.failure).not.toBeNull();
      expect(unknown.entries).toEqual([]);
      const refunded = await entriesOf(() => run('orders:refund', orderId, '--reason', 'お客様都合'));
      expect(refunded.failure).toBeNull();
      expect(refunded.entries).toHaveLength(1);
      expect(refunded.entries[0]).toMatchObject({
        action: 'order.refund',
        permission: 'orders:refund',
        targetType: 'payment_order',
        targetId: orderId,
        before: { status: 'paid', refundedJpy: 0 },
        after: { status: 'refunded', refundedJpy: 1000, reason: digestOf('お客様都合') },
      });
      // The reason itself is a staff note on the member (redacted by 退会), named by the entry.
      const [note] = await handle.db.select().from(memberNotes).where(eq(memberNotes.memberId, member));
      expect(note!.text).toMatch(/^注文 \S+ の返金の理由: お客様都合$/);
      expect((refunded.entries[0]!.after as { noteId: number }).noteId).toBe(note!.id);
    } finally {
      gateway = undefined;
    }
    expect(await getBalance(handle.db, member)).toMatchObject({ paid: 0, free: 0 });
  });

  it('commands that only read leave no entry', async () => {
    const [pack] = await handle.db.select({ id: gachas.id }).from(gachas).limit(1);
    for (const line of [
      ['coinpacks:list'],
      ['orders:list'],
      ['invariants'],
      ['report:unused-paid'],
      ['pack:reveal', pack!.id],
    ])
      expect((await entriesOf(() => run(...line))).entries, line.join(' ')).toEqual([]);
  });
});
