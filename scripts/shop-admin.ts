// The operators' command line until the admin area exists (and for tests and benchmarks):
//   npm run shop -- pack:create <file.json> [--publish]   create a pack (draft) from a JSON definition
//   npm run shop -- pack:publish <gachaId>                fix its lots and commitment, put it on sale
//   npm run shop -- pack:end <gachaId>                    end the sale; the seed and log become public
//   npm run shop -- pack:reveal <gachaId> [--out f.json]  the reveal file (for npm run verify-pack)
//   npm run shop -- coins:grant --member <id|email> --amount N --reason "…" [--kind free|paid] [--key K]
//   npm run shop -- members:create --count N [--coins C] [--prefix P] [--out f.json]
//   npm run shop -- staff:grant --member <id|email> [--revoke]   make a member staff (or not)
//   npm run shop -- invariants                            check every money and lot invariant
// It reads the same settings as the server (DATABASE_URL, DATA_DIR). On the embedded database, stop
// the server first: PGlite allows one process at a time.
import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { eq, or } from 'drizzle-orm';
import { z } from 'zod';
import { loadConfig, ConfigError } from '../server/config';
import { createLogger } from '../server/logger';
import { createPaymentServices } from '../server/payments';
import { openDatabase, type Database } from '../db/client';
import { users, sessions } from '../modules/identity/schema';
import { createPack, publishPack, endPack, getPackReveal, PackAdminError, packDefinitionSchema } from '../modules/gacha/admin';
import { grantCoins, checkInvariants, IdempotencyKeyConflict } from '../modules/wallet';
import {
  baseDateBefore, checkPaymentInvariants, clearPurchaseHold, declareAge, listAllCoinPacks, listOrdersForOperator, orderStatuses, refundOrder, saveCoinPack, unusedPaidBalanceReport,
  PurchaseRefused, type PaymentGateway,
} from '../modules/payments';

const USAGE = `使い方: npm run shop -- <command> [options]
  pack:create <file.json> [--publish]
  pack:publish <gachaId>
  pack:end <gachaId>
  pack:reveal <gachaId> [--out file.json]
  coins:grant --member <id|email> --amount N --reason "理由" [--kind free|paid] [--key 冪等キー]
  members:create --count N [--coins C] [--prefix P] [--out file.json]
  staff:grant --member <id|email> [--revoke]
  members:age --member <id|email> (--minor | --adult)      年齢申告の訂正
  members:clear-hold --member <id|email>                   チャージバック後の購入停止を解除
  coinpacks:list
  coinpacks:set --id ID --name 名前 --price 円 --paid 枚 [--bonus 枚] [--first] [--badge 人気] [--sort N] [--inactive]
  orders:list [--status review|pending|paid|…] [--member <id|email>] [--count N]   注文の一覧（新しい順）
  orders:refund <orderId> --reason "理由"                  全額返金（コインも取り消し）
  report:unused-paid [--date 2027-03-31]                   資金決済法 基準日の未使用残高
  invariants`;

export class UsageError extends Error {}

async function findMember(db: Database, idOrEmail: string) {
  const [row] = await db.select({ id: users.id, role: users.role }).from(users).where(or(eq(users.id, idOrEmail), eq(users.email, idOrEmail.toLowerCase())));
  if (!row) throw new UsageError(`会員 ${idOrEmail} が見つかりません。`);
  return row;
}

/** Coin lifetimes from the settings, when the command line runs with them (main passes them). */
let lifetimes: { paid?: number; free?: number } | undefined;
/** The payment providers, for refunds (main, or a test, sets them). */
let gateway: PaymentGateway | undefined;
export const useGateway = (value: PaymentGateway | undefined) => { gateway = value; };

export async function runAdminCommand(db: Database, argv: string[], out: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      publish: { type: 'boolean' }, out: { type: 'string' }, member: { type: 'string' }, amount: { type: 'string' },
      reason: { type: 'string' }, kind: { type: 'string' }, key: { type: 'string' }, count: { type: 'string' },
      coins: { type: 'string' }, prefix: { type: 'string' }, revoke: { type: 'boolean' },
      minor: { type: 'boolean' }, adult: { type: 'boolean' }, id: { type: 'string' }, name: { type: 'string' }, price: { type: 'string' },
      paid: { type: 'string' }, bonus: { type: 'string' }, first: { type: 'boolean' }, badge: { type: 'string' }, sort: { type: 'string' },
      inactive: { type: 'boolean' }, date: { type: 'string' }, status: { type: 'string' },
    },
  });
  const [command, arg] = positionals;
  switch (command) {
    case 'pack:create': {
      if (!arg) throw new UsageError('JSONファイルを指定してください。');
      let json: unknown;
      try {
        json = JSON.parse(await readFile(arg, 'utf8'));
      } catch (error) {
        throw new UsageError(`${arg} を読めません: ${(error as Error).message}`);
      }
      const parsed = packDefinitionSchema.safeParse(json);
      if (!parsed.success) throw new UsageError(`定義に誤りがあります:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
      const created = await createPack(db, json as never);
      out(JSON.stringify({ created: created.id, totalLots: created.totalLots }));
      if (values.publish) out(JSON.stringify({ published: created.id, ...(await publishPack(db, created.id)) }));
      return;
    }
    case 'pack:publish':
      if (!arg) throw new UsageError('ガチャIDを指定してください。');
      out(JSON.stringify({ published: arg, ...(await publishPack(db, arg)) }));
      return;
    case 'pack:end':
      if (!arg) throw new UsageError('ガチャIDを指定してください。');
      await endPack(db, arg);
      out(JSON.stringify({ ended: arg }));
      return;
    case 'pack:reveal': {
      if (!arg) throw new UsageError('ガチャIDを指定してください。');
      const reveal = await getPackReveal(db, arg);
      if (!reveal) throw new UsageError('このガチャはまだ公開（完売または終了）されていません。');
      if (values.out) await writeFile(values.out, JSON.stringify(reveal, null, 2));
      else out(JSON.stringify(reveal));
      return;
    }
    case 'coins:grant': {
      const amount = z.coerce.number().int().min(1).max(10_000_000).safeParse(values.amount);
      if (!values.member || !amount.success) throw new UsageError('--member と --amount（1〜10,000,000の整数）を指定してください。');
      if (!values.reason?.trim()) throw new UsageError('--reason（付与の理由）を指定してください。');
      const kind = values.kind ?? 'free';
      if (kind !== 'free' && kind !== 'paid') throw new UsageError('--kind は free か paid です。');
      const member = await findMember(db, values.member);
      const result = await grantCoins(db, {
        memberId: member.id, kind, amount: amount.data, reason: 'operator_grant', counterAccount: kind === 'paid' ? 'adjustment' : 'promotion',
        idempotencyKey: `ops:${values.key ?? randomUUID()}`, memo: values.reason.trim(), lifetimeDays: lifetimes,
      }).catch((error: unknown) => {
        if (error instanceof IdempotencyKeyConflict) throw new UsageError(`キー ${values.key} は別の付与（会員・種類・枚数が違う）に使われています。何も付与していません。`);
        throw error;
      });
      out(JSON.stringify({ member: member.id, kind, amount: amount.data, ...result }));
      return;
    }
    case 'members:create': {
      const count = z.coerce.number().int().min(1).max(100_000).safeParse(values.count);
      const coins = z.coerce.number().int().min(0).max(1_000_000_000).safeParse(values.coins ?? '0');
      if (!count.success || !coins.success) throw new UsageError('--count（1〜100,000）と --coins（0以上）を指定してください。');
      const prefix = (values.prefix ?? 'member').replace(/[^a-z0-9-]/gi, '').slice(0, 20) || 'member';
      const created: { id: string; email: string; token: string }[] = [];
      const expiresAt = new Date(Date.now() + 7 * 86_400_000);
      for (let i = 0; i < count.data; i++) {
        const id = `${prefix}-${randomBytes(8).toString('hex')}`;
        const email = `${id}@example.invalid`;
        const token = randomBytes(24).toString('base64url');
        await db.insert(users).values({ id, name: `${prefix}${i + 1}`, email, role: 'user' });
        await db.insert(sessions).values({ id: randomUUID(), token, userId: id, expiresAt });
        if (coins.data > 0) {
          await grantCoins(db, { memberId: id, kind: 'paid', amount: coins.data, reason: 'operator_grant', counterAccount: 'adjustment', idempotencyKey: `ops:members:${id}`, memo: 'ベンチマーク・テスト用' });
        }
        created.push({ id, email, token });
      }
      if (values.out) await writeFile(values.out, JSON.stringify(created, null, 2));
      out(JSON.stringify({ created: created.length, out: values.out ?? null, members: values.out ? undefined : created }));
      return;
    }
    case 'staff:grant': {
      if (!values.member) throw new UsageError('--member を指定してください。');
      const member = await findMember(db, values.member);
      const role = values.revoke ? 'user' : 'admin';
      await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, member.id));
      // Staff cannot draw; their open sessions carry the new role from the next request on.
      out(JSON.stringify({ member: member.id, role }));
      return;
    }
    case 'members:age': {
      if (!values.member || values.minor === values.adult) throw new UsageError('--member と、--minor か --adult のどちらか一方を指定してください。');
      const member = await findMember(db, values.member);
      out(JSON.stringify({ member: member.id, ...(await declareAge(db, member.id, Boolean(values.minor), { byOperator: true })) }));
      return;
    }
    case 'members:clear-hold': {
      if (!values.member) throw new UsageError('--member を指定してください。');
      const member = await findMember(db, values.member);
      out(JSON.stringify({ member: member.id, cleared: await clearPurchaseHold(db, member.id) }));
      return;
    }
    case 'coinpacks:list': {
      for (const pack of await listAllCoinPacks(db)) out(JSON.stringify(pack));
      return;
    }
    case 'coinpacks:set': {
      const int = (min: number) => z.coerce.number().int().min(min).max(10_000_000);
      const parsed = z.object({ id: z.string().regex(/^[a-z0-9-]{1,40}$/), name: z.string().trim().min(1).max(60), price: int(1), paid: int(1), bonus: int(0), sort: int(0) })
        .safeParse({ id: values.id, name: values.name, price: values.price, paid: values.paid, bonus: values.bonus ?? '0', sort: values.sort ?? '0' });
      if (!parsed.success) throw new UsageError(`入力に誤りがあります: ${parsed.error.issues.map((i) => `--${i.path.join('.')}`).join(', ')}（id は半角英小文字・数字・ハイフン、金額と枚数は整数）`);
      const row = { id: parsed.data.id, name: parsed.data.name, priceJpy: parsed.data.price, paidCoins: parsed.data.paid, bonusCoins: parsed.data.bonus,
        firstPurchaseOnly: Boolean(values.first), badge: values.badge?.trim() || null, sortOrder: parsed.data.sort, active: !values.inactive };
      // Orders copy the pack's numbers when they are made, so editing a pack never changes a purchase.
      await saveCoinPack(db, row);
      out(JSON.stringify(row));
      return;
    }
    case 'orders:list': {
      const status = values.status;
      if (status !== undefined && !(orderStatuses as readonly string[]).includes(status)) throw new UsageError(`--status は ${orderStatuses.join(', ')} のいずれかです。`);
      const count = z.coerce.number().int().min(1).max(1000).safeParse(values.count ?? '50');
      if (!count.success) throw new UsageError('--count は1〜1000の整数です。');
      const member = values.member ? await findMember(db, values.member) : null;
      const rows = await listOrdersForOperator(db, { status: status as (typeof orderStatuses)[number] | undefined, memberId: member?.id, limit: count.data });
      for (const row of rows) {
        out(JSON.stringify({ id: row.id, receiptNo: row.receiptNo, member: row.memberId, status: row.status, method: row.method, amountJpy: row.amountJpy,
          paidCoins: row.paidCoins, bonusCoins: row.bonusCoins + row.rankBonusCoins, failureReason: row.failureReason, unrecoveredCoins: row.unrecoveredCoins,
          createdAt: row.createdAt.toISOString(), creditedAt: row.creditedAt?.toISOString() ?? null }));
      }
      return;
    }
    case 'orders:refund': {
      if (!arg || !values.reason?.trim()) throw new UsageError('注文ID と --reason を指定してください。');
      if (!gateway) throw new UsageError('決済事業者の設定を読み込めませんでした。');
      try {
        const result = await refundOrder(db, gateway, arg, values.reason.trim());
        out(JSON.stringify(result.order));
      } catch (error) {
        if (error instanceof PurchaseRefused) throw new UsageError(error.message);
        throw error;
      }
      return;
    }
    case 'report:unused-paid': {
      const date = values.date ?? baseDateBefore(new Date());
      if (!/^\d{4}-(03-31|09-30)$/.test(date)) throw new UsageError('--date は基準日（YYYY-03-31 または YYYY-09-30）です。');
      out(JSON.stringify(await unusedPaidBalanceReport(db, date)));
      return;
    }
    case 'invariants': {
      const violations = [...(await checkInvariants(db)), ...(await checkPaymentInvariants(db))];
      out(JSON.stringify({ ok: violations.length === 0, violations }));
      if (violations.length) process.exitCode = 1;
      return;
    }
    default:
      throw new UsageError(command ? `不明なコマンドです: ${command}` : 'コマンドを指定してください。');
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help') {
    console.log(USAGE);
    process.exitCode = argv.length ? 0 : 2;
    return;
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    process.exitCode = 2;
    return;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 2 });
  try {
    await database.migrate();
    lifetimes = { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS };
    // Only a refund talks to a provider; the local stand-ins would not know the shop's payments.
    const payments = argv[0] === 'orders:refund'
      ? await createPaymentServices({ config, db: database.db, logger: createLogger('warn') })
      : undefined;
    useGateway(payments?.gateway);
    try {
      await runAdminCommand(database.db, argv, (line) => console.log(line));
    } finally {
      await payments?.close();
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof PackAdminError) {
      console.error(`エラー: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main();
