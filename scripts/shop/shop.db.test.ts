// The operators' command line on a real database: packs from a JSON file, publishing, ending and
// the reveal, coin grants with a reason, members for benchmarks, staff, and its Japanese refusals.
import { describe, it, expect, beforeAll } from 'vitest';
import path from 'node:path';
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '#tests/use-test-database';
import { ensureGenre, TEST_RULES } from '#tests/fixtures';
import { UsageError } from './run';
import { commandRunner } from './testing';
import { verifyReveal, type PackReveal } from '#modules/fairness';
import { getBalance, listLedgerEntries } from '#modules/wallet';
import { drawLots } from '#modules/draw';
import { ensureDefaultCoinPacks } from '#modules/payments';
import type { PaymentGateway } from '#modules/payments';

const examplePack = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/pack.json');
const handle = useTestDatabase('cli', { poolSize: 2 });

/** The payment providers a refund talks to (set by the test that refunds). */
let gateway: PaymentGateway | undefined;

const run = commandRunner(
  () => handle.db,
  () => gateway,
);

beforeAll(async () => {
  await ensureGenre(handle.db, 'pokemon');
  await ensureDefaultCoinPacks(handle.db);
});

describe('npm run shop', () => {
  it('creates, publishes, sells, ends and reveals a pack that verifies', async () => {
    const received = await run('stock:receive', '--pack', examplePack);
    expect(received.map((card) => [card.cardName, card.onHand, card.reserved])).toContainEqual([
      '星詠みのドラゴン SAR',
      1,
      0,
    ]);
    const [created, published] = await run('pack:create', examplePack, '--publish');
    expect(await run('stock:list', '--query', '星詠み')).toEqual([
      expect.objectContaining({ cardName: '星詠みのドラゴン SAR', onHand: 1, reserved: 1, available: 0 }),
    ]);
    expect(created).toEqual({ created: 'example-pokemon-001', totalLots: 100 });
    expect(published).toMatchObject({ published: 'example-pokemon-001', totalLots: 100, status: 'on_sale' });
    expect(String(published!.commitment)).toMatch(/^[0-9a-f]{64}$/);
    const [{ members }] = (await run('members:create', '--count', '2', '--coins', '50000', '--prefix', 'cli')) as [
      { members: { id: string; token: string }[] },
    ];
    expect(members).toHaveLength(2);
    expect((await getBalance(handle.db, members[0]!.id)).paid).toBe(50_000);
    expect(
      (
        await drawLots(handle.db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: members[0]!.id,
          gachaId: 'example-pokemon-001',
          count: 10,
          idempotencyKey: randomUUID(),
        })
      ).ok,
    ).toBe(true);
    await expect(run('pack:reveal', 'example-pokemon-001')).rejects.toBeInstanceOf(UsageError);
    expect(await run('pack:end', 'example-pokemon-001')).toEqual([{ ended: 'example-pokemon-001' }]);
    const out = path.join(os.tmpdir(), `reveal-${randomUUID()}.json`);
    await run('pack:reveal', 'example-pokemon-001', '--out', out);
    const reveal = JSON.parse(await readFile(out, 'utf8')) as PackReveal;
    expect(reveal.draws).toHaveLength(1);
    expect(verifyReveal(reveal).ok).toBe(true);
    expect(await run('invariants')).toEqual([{ ok: true, violations: [] }]);
  });

  it('grants coins with a reason, once per key, and makes staff', async () => {
    const [{ members }] = (await run('members:create', '--count', '1', '--prefix', 'grant')) as [
      { members: { id: string }[] },
    ];
    const id = members[0]!.id;
    await run('coins:grant', '--member', id, '--amount', '300', '--reason', 'お詫び', '--key', 'apology-1');
    await run('coins:grant', '--member', id, '--amount', '300', '--reason', 'お詫び', '--key', 'apology-1');
    expect(await getBalance(handle.db, id)).toMatchObject({ free: 300, paid: 0 });
    expect((await listLedgerEntries(handle.db, id)).items[0]).toMatchObject({
      reason: 'operator_grant',
      memo: 'お詫び',
      amount: 300,
    });
    await expect(
      run('coins:grant', '--member', id, '--amount', '500', '--reason', 'お詫び', '--key', 'apology-1'),
    ).rejects.toThrow(/別の付与/);
    expect((await getBalance(handle.db, id)).free).toBe(300);
    expect(await run('staff:grant', '--member', id)).toEqual([{ member: id, role: 'admin' }]);
    // The shop is never left without an admin (modules/admin): a second one first, then the revoke.
    await expect(run('staff:grant', '--member', id, '--revoke')).rejects.toThrow('最後の管理者は外せません');
    const [{ members: others }] = (await run('members:create', '--count', '1', '--prefix', 'grant2')) as [
      { members: { id: string }[] },
    ];
    expect(await run('staff:grant', '--member', others[0]!.id)).toEqual([{ member: others[0]!.id, role: 'admin' }]);
    expect(await run('staff:grant', '--member', id, '--revoke')).toEqual([{ member: id, role: 'user' }]);
  });

  it('refuses bad input in Japanese and changes nothing', async () => {
    await expect(
      run('coins:grant', '--member', 'nobody@example.invalid', '--amount', '5', '--reason', 'x'),
    ).rejects.toThrow('会員 nobody@example.invalid が見つかりません。');
    await expect(run('coins:grant', '--member', 'x', '--amount', '-5', '--reason', 'x')).rejects.toThrow(/--amount/);
    await expect(run('coins:grant', '--member', 'x', '--amount', '5')).rejects.toThrow(/--reason/);
    await expect(run('pack:create', '/nonexistent.json')).rejects.toThrow(/を読めません/);
    await expect(run('pack:create', examplePack)).rejects.toThrow(/既にあります/);
    await expect(run('nonsense')).rejects.toThrow('不明なコマンドです: nonsense');
  });
});

describe('npm run shop: the coin shop', () => {
  it('sets and lists coin packs, refusing bad numbers in Japanese', async () => {
    const [pack] = await run(
      'coinpacks:set',
      '--id',
      'cli-2000',
      '--name',
      '2,000コイン',
      '--price',
      '2000',
      '--paid',
      '2000',
      '--bonus',
      '40',
      '--badge',
      '人気',
      '--sort',
      '25',
    );
    expect(pack).toMatchObject({
      id: 'cli-2000',
      priceJpy: 2000,
      paidCoins: 2000,
      bonusCoins: 40,
      badge: '人気',
      active: true,
    });
    await run(
      'coinpacks:set',
      '--id',
      'cli-2000',
      '--name',
      '2,000コイン',
      '--price',
      '2000',
      '--paid',
      '2000',
      '--inactive',
    );
    const listed = await run('coinpacks:list');
    expect(listed.find((p) => p.id === 'cli-2000')).toMatchObject({ bonusCoins: 0, active: false });
    await expect(run('coinpacks:set', '--id', 'BAD ID', '--name', 'x', '--price=-1', '--paid', '1')).rejects.toThrow(
      /入力に誤りがあります/,
    );
  });

  it('corrects an age declaration, clears a hold, and refunds an order with its coins', async () => {
    const { createMember } = await import('#tests/fixtures');
    const { sandboxHarness, checkoutAsMember } = await import('#modules/payments/testing');
    const { syncOrder, getPurchaseStanding, checkPaymentInvariants } = await import('#modules/payments');
    const db = handle.db;
    const member = await createMember(db);
    expect((await run('members:age', '--member', member, '--minor'))[0]).toMatchObject({ declaredMinor: true });
    expect((await getPurchaseStanding(db, member, TEST_RULES.payments)).capJpy).toBe(10_000);
    expect((await run('members:age', '--member', member, '--adult'))[0]).toMatchObject({ declaredMinor: false });
    await expect(run('members:age', '--member', member)).rejects.toThrow(/--minor か --adult/);

    const sandbox = sandboxHarness(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    const back = await sandbox.decide(redirectUrl, 'approve');
    await syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments, returnParams: back.searchParams });
    expect(await getBalance(db, member)).toMatchObject({ paid: 1000, free: 10 });
    gateway = sandbox.gateway;
    try {
      await expect(run('orders:refund', orderId)).rejects.toThrow(UsageError);
      const [refunded] = await run('orders:refund', orderId, '--reason', 'お客様都合');
      expect(refunded).toMatchObject({ id: orderId, status: 'refunded', refundedJpy: 1000 });
    } finally {
      gateway = undefined;
    }
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
    expect((await run('members:clear-hold', '--member', member))[0]).toMatchObject({ cleared: false });
    expect(await checkPaymentInvariants(db)).toEqual([]);
    const listed = await run('orders:list', '--member', member);
    expect(listed.map((o) => [o.id, o.status])).toEqual([[orderId, 'refunded']]);
    expect(await run('orders:list', '--status', 'review', '--member', member)).toEqual([]);
    await expect(run('orders:list', '--status', 'bogus')).rejects.toThrow(/--status/);
    const [report] = await run('report:unused-paid', '--date', '2026-09-30');
    expect(report).toMatchObject({ baseDate: '2026-09-30', thresholdJpy: 10_000_000 });
    await expect(run('report:unused-paid', '--date', '2026-10-01')).rejects.toThrow(/基準日/);
  });
});

describe('npm run shop: numbers on the command line', () => {
  let member: string;
  beforeAll(async () => {
    const [{ members }] = (await run('members:create', '--count', '1', '--prefix', 'numbers')) as [
      { members: { id: string }[] },
    ];
    member = members[0]!.id;
  });

  // Each of these once became a number (0x10 → 16, 1e3 → 1000, ' 12' → 12, '' → 0) or a stack trace (-5).
  it.each(['0x10', '1e3', '-5', '12abc', '', ' 12', '1.5', '+5', '0', '10000001', '99999999999999999999'])(
    'coins:grant --amount=%j is refused with a usage message and grants nothing',
    async (amount) => {
      const refused = run('coins:grant', '--member', member, `--amount=${amount}`, '--reason', 'テスト');
      await expect(refused).rejects.toBeInstanceOf(UsageError);
      await expect(refused).rejects.toThrow('--amount は 1〜10,000,000 の整数（半角数字のみ）で指定してください');
      expect(await getBalance(handle.db, member)).toMatchObject({ free: 0, paid: 0 });
      expect((await listLedgerEntries(handle.db, member)).items).toEqual([]);
    },
  );

  it('refuses a value that starts with a dash, an unknown option and a missing value in Japanese', async () => {
    await expect(run('coins:grant', '--member', member, '--amount', '-5', '--reason', 'テスト')).rejects.toThrow(
      '--amount の値が正しくありません',
    );
    await expect(run('coins:grant', '--member', member, '--amount')).rejects.toThrow('--amount の値が正しくありません');
    await expect(
      run('coins:grant', '--member', member, '--amount', '5', '--reason', 'テスト', '--amont', '5'),
    ).rejects.toThrow('このコマンドにないオプションです: --amont');
    expect((await listLedgerEntries(handle.db, member)).items).toEqual([]);
  });

  it('reads every other number the same way', async () => {
    await expect(run('members:create', '--count', '0x2')).rejects.toThrow('--count は 1〜100,000');
    await expect(run('members:create', '--count', '1', '--coins', '1e3')).rejects.toThrow(
      '--coins は 0〜1,000,000,000',
    );
    await expect(run('orders:list', '--count', '1e3')).rejects.toThrow('--count は 1〜1,000');
    await expect(
      run('coinpacks:set', '--id', 'cli-hex', '--name', 'x', '--price', '0x10', '--paid', '16'),
    ).rejects.toThrow('入力に誤りがあります: --price');
    await expect(
      run('coinpacks:set', '--id', 'cli-hex', '--name', 'x', '--price', '16', '--paid', '16', '--sort', '1e3'),
    ).rejects.toThrow('入力に誤りがあります: --sort');
    expect((await run('coinpacks:list')).some((p) => p.id === 'cli-hex')).toBe(false);
    expect(await run('orders:list', '--count', '007')).toBeInstanceOf(Array);
  });
});

// Each run starts Node with tsx and loads the modules: seconds each on a busy machine.
describe('npm run shop as a process', { timeout: 180_000 }, () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  /** Runs the real entry (what `npm run shop --` runs) on the test database. */
  async function shop(...args: string[]) {
    const { execFile } = await import('node:child_process');
    const env = {
      ...process.env,
      LOG_LEVEL: 'silent',
      ...(handle.databaseUrl ? { DATABASE_URL: handle.databaseUrl } : { DATA_DIR: handle.dataDir }),
    };
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/shop/index.ts', ...args],
        { cwd: root, env },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('prints the usage listing every command for --help, and refuses an unknown command', async () => {
    const [help, unknown] = await Promise.all([shop('--help'), shop('coins:steal')]);
    expect(help.code).toBe(0);
    for (const name of [
      'pack:create',
      'coins:grant',
      'members:create',
      'coinpacks:set',
      'orders:refund',
      'report:unused-paid',
      'invariants',
    ])
      expect(help.stdout).toContain(`  ${name}`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('エラー: 不明なコマンドです: coins:steal');
    expect(unknown.stderr).toContain('使い方: npm run shop -- <command> [options]');
  });

  it('refuses --amount -5 and --amount 0x10 with exit code 2, a Japanese message and no stack trace', async () => {
    if (!handle.databaseUrl)
      return void console.warn('skipped: the embedded database admits one process, and this file holds it open');
    const [{ members }] = (await run('members:create', '--count', '1', '--prefix', 'process')) as [
      { members: { id: string }[] },
    ];
    const member = members[0]!.id;
    const amounts = ['-5', '0x10'];
    const results = await Promise.all(
      amounts.map((amount) => shop('coins:grant', '--member', member, '--amount', amount, '--reason', 'テスト')),
    );
    for (const [i, amount] of amounts.entries()) {
      const result = results[i]!;
      expect(result.code, amount).toBe(2);
      expect(result.stderr, amount).toMatch(/^エラー: --amount (の値が正しくありません|は 1〜10,000,000 の整数)/);
      expect(result.stderr, amount).not.toMatch(/\n\s+at /);
      expect(result.stdout, amount).toBe('');
    }
    expect(await getBalance(handle.db, member)).toMatchObject({ free: 0, paid: 0 });
  });
});
