// Stand-alone verification of a pack's reveal file: `npm run verify-pack -- reveal.json` (or `npx tsx scripts/verify-pack.ts reveal.json`).
// Exit codes: 0 every check passed, 1 a check failed, 2 the file could not be read or is not a reveal file.
// Imports only node builtins and modules/fairness (commitment.ts over format.ts), so it can be copied out with those two files.
import fs from 'node:fs';
import { parsePackReveal, verifyReveal, REVEAL_FORMAT, REVEAL_FORMAT_KIRIBAN } from '#modules/fairness';

const USAGE = '使い方: npx tsx scripts/verify-pack.ts <公開ファイル.json>';

function stop(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function main(args: string[]): number {
  if (args.length !== 1 || args[0] === '-h' || args[0] === '--help') stop(USAGE, 2);
  const file = args[0];

  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
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

  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    stop(`JSON として読み込めません: ${file}（${(error as Error).message}）`, 2);
  }

  const parsed = parsePackReveal(json);
  if (!parsed.ok) {
    stop(
      [
        `公開ファイルの形式（${REVEAL_FORMAT}・${REVEAL_FORMAT_KIRIBAN}）ではありません: ${file}`,
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

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // Never a stack trace: a verifier's user needs the reason, not our internals.
  process.stderr.write(`検証を実行できません: ${(error as Error)?.message ?? String(error)}\n`);
  process.exitCode = 2;
}
