// Stand-alone verification of a pack's reveal file or, for a beacon pack, its public draw log:
// `npm run verify-pack -- reveal.json` (or `npx tsx scripts/verify-pack.ts reveal.json`), and for a log whose
// drand chain is not quicknet (a stand-in's) `--trust-chain chain-info.json` (drand's /info of that chain).
// Exit codes: 0 every check passed, 1 a check failed, 2 a file could not be read or is not a reveal file or log.
// Imports only node builtins, modules/fairness and the beacon module it verifies drand's beacons with.
import fs from 'node:fs';
import {
  BEACON_LOG_FORMAT,
  REVEAL_FORMAT,
  REVEAL_FORMAT_CEILING,
  REVEAL_FORMAT_EXTRAS,
  REVEAL_FORMAT_KIRIBAN,
  isBeaconLogJson,
  parseBeaconLog,
  parsePackReveal,
  verifyBeaconLog,
  verifyReveal,
  type TrustedChain,
} from '#modules/fairness';
import { QUICKNET, chainInfoSchema, hashMatchesInfo } from '#modules/beacon';

const USAGE = '使い方: npx tsx scripts/verify-pack.ts <公開ファイル.json> [--trust-chain <drand のチェーン情報.json>]';

function stop(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** The file's text, or exit 2 naming why it cannot be read. */
function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'ファイルがありません'
        : code === 'EISDIR'
          ? 'フォルダです'
          : code === 'EACCES'
            ? '読み取る権限がありません'
            : (code ?? '読み取りエラー');
    stop(`ファイルを読み込めません: ${file}（${reason}）`, 2);
  }
}

function readJson(file: string): unknown {
  const text = readText(file);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    stop(`JSON として読み込めません: ${file}（${(error as Error).message}）`, 2);
  }
}

/** `<file> [--trust-chain <info.json>]…`, or exit 2 with the usage. */
function parseArgs(args: string[]): { file: string; trustChains: string[] } {
  const files: string[] = [];
  const trustChains: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') stop(USAGE, 2);
    if (arg === '--trust-chain') {
      const next = args[(i += 1)];
      if (!next) stop(USAGE, 2);
      trustChains.push(next);
    } else files.push(arg);
  }
  if (files.length !== 1) stop(USAGE, 2);
  return { file: files[0]!, trustChains };
}

/** A chain the user trusts besides quicknet: drand's /info, its hash derived from its fields. */
function trustedChain(file: string): TrustedChain {
  const parsed = chainInfoSchema.safeParse(readJson(file));
  if (!parsed.success || !hashMatchesInfo(parsed.data))
    stop(`drand のチェーン情報ではないか、hash が内容から求めた値と違います: ${file}`, 2);
  return { ...parsed.data, hash: parsed.data.hash.toLowerCase(), public_key: parsed.data.public_key.toLowerCase() };
}

function verifyRevealFile(file: string, json: unknown): number {
  const parsed = parsePackReveal(json);
  if (!parsed.ok) {
    stop(
      [
        `公開ファイルの形式（${[REVEAL_FORMAT, REVEAL_FORMAT_KIRIBAN, REVEAL_FORMAT_EXTRAS, REVEAL_FORMAT_CEILING, BEACON_LOG_FORMAT].join('・')}）ではありません: ${file}`,
        ...parsed.errors.map((e) => `  - ${e}`),
      ].join('\n'),
      2,
    );
  }

  const { reveal } = parsed;
  const result = verifyReveal(reveal);
  const lines = [
    `パック: ${reveal.gacha.title}（${reveal.gacha.id}）`,
    `総口数: ${reveal.gacha.totalLots}　1回: ${reveal.gacha.pricePerDraw} コイン`,
    `コミットメント: ${reveal.commitment}（${reveal.committedAt}）`,
    `シード: ${reveal.seed}（${reveal.revealedAt} 公開）`,
    '',
    ...result.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`),
    '',
  ];
  const failed = result.checks.filter((c) => !c.ok).length;
  lines.push(
    result.ok
      ? `検証成功: ${result.checks.length} 項目すべてに合格しました。口の中身と並び順は販売前に固定されていました。`
      : `検証失敗: ${result.checks.length} 項目中 ${failed} 項目が不合格です。`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return result.ok ? 0 : 1;
}

function verifyBeaconLogFile(file: string, json: unknown, trustedChains: TrustedChain[]): number {
  const parsed = parseBeaconLog(json);
  if (!parsed.ok)
    stop(
      [
        `ビーコン抽選の公開ログ（${BEACON_LOG_FORMAT}）として読めません: ${file}`,
        ...parsed.errors.map((e) => `  - ${e}`),
      ].join('\n'),
      2,
    );
  const { pack } = parsed.log;
  const result = verifyBeaconLog(json, { trustedChains });
  const stats = result.stats!;
  const chain = pack.beacon.chainHash === QUICKNET.hash ? 'drand quicknet' : `chainHash ${pack.beacon.chainHash}`;
  const lines = [
    `パック: ${pack.title}（${pack.id}、ビーコン抽選）`,
    `総口数: ${pack.totalLots}　1回: ${pack.pricePerDraw} コイン`,
    `コミットメント: ${pack.commitment}（${pack.committedAt}）`,
    `乱数: ${chain}　受付票の鍵: ${pack.receiptKey}`,
    `受付票: ヘッドに入った ${stats.receipts} 枚（精算済み ${stats.settledReceipts} 枚・${stats.settledLots} 口）、未締切 ${stats.pendingReceipts} 枚　ヘッド: ${stats.heads} 個`,
    '',
    ...result.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`),
    '',
  ];
  const failed = result.checks.filter((c) => !c.ok).length;
  lines.push(
    result.ok
      ? `検証成功: ${result.checks.length} 項目すべてに合格しました。精算済みの結果はすべて、ヘッドで固定された受付票と drand の乱数から求めたとおりです。`
      : `検証失敗: ${result.checks.length} 項目中 ${failed} 項目が不合格です。`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return result.ok ? 0 : 1;
}

function main(args: string[]): number {
  const { file, trustChains } = parseArgs(args);
  const trusted = trustChains.map(trustedChain);
  const json = readJson(file);
  return isBeaconLogJson(json) ? verifyBeaconLogFile(file, json, trusted) : verifyRevealFile(file, json);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // Never a stack trace: a verifier's user needs the reason, not our internals.
  process.stderr.write(`検証を実行できません: ${(error as Error)?.message ?? String(error)}\n`);
  process.exitCode = 2;
}
