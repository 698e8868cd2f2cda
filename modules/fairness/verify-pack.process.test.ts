// The stand-alone verifier (scripts/verify-pack.ts) run as a member would run it: a Node process per file.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { scaledTimeout } from '#tests/settings';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { FIXTURE_PATH, beaconExample, ceilingReveal, exampleChain, fixture, kiribanReveal, pagesOf } from './testing';

describe('scripts/verify-pack.ts', () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const script = path.join(root, 'scripts', 'verify-pack.ts');
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-pack-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', script, ...args],
        { cwd: root, timeout: scaledTimeout(60_000) },
        (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
        },
      );
    });
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('exits 0 for a valid reveal, 1 for a tampered one, 2 for unreadable or malformed input', async () => {
    const tampered = fixture();
    tampered.lots[0] = 'tier-s';
    const [valid, bad, missing, notJson, wrongShape, noArgs] = await Promise.all([
      run(FIXTURE_PATH),
      run(write('tampered.json', JSON.stringify(tampered))),
      run(path.join(dir, 'nothing-here.json')),
      run(write('broken.json', '{"format": "oripa-pack-reveal/1",')),
      run(write('shape.json', JSON.stringify({ ...fixture(), draws: 'none' }))),
      run(),
    ]);

    expect(valid).toMatchObject({ code: 0, stderr: '' });
    expect(valid.stdout).toContain('✓ コミットメント一致');
    expect(valid.stdout).toContain('検証成功');
    expect(valid.stdout).not.toContain('✗');

    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✗ コミットメント一致');
    expect(bad.stdout).toContain('✗ 賞の数量');
    expect(bad.stdout).toContain('検証失敗');

    for (const result of [missing, notJson, wrongShape, noArgs]) {
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(missing.stderr).toContain('ファイルを読み込めません');
    expect(missing.stderr).toContain('ファイルがありません');
    expect(notJson.stderr).toContain('JSON として読み込めません');
    expect(wrongShape.stderr).toContain('draws: 配列ではありません');
    expect(noArgs.stderr).toContain('使い方');
  });

  it('gives every example of docs/formats its stated exit code', async () => {
    const examples = path.join(root, 'docs', 'formats', 'examples');
    const { examples: expected } = JSON.parse(fs.readFileSync(path.join(examples, 'expected.json'), 'utf8')) as {
      examples: { file: string; exit: number; trustChain?: string }[];
    };
    const results = await Promise.all(
      expected.map((e) =>
        run(path.join(examples, e.file), ...(e.trustChain ? ['--trust-chain', path.join(examples, e.trustChain)] : [])),
      ),
    );
    expect(results.map((r) => r.code)).toEqual(expected.map((e) => e.exit));
  });

  it('checks the キリ番賞 of a /2 file: exit 0, and 1 when an award is moved to another draw', async () => {
    const tampered = kiribanReveal();
    tampered.draws[2].kiriban = [];
    tampered.draws[3].kiriban = [9];
    const [valid, bad] = await Promise.all([
      run(write('kiriban.json', JSON.stringify(kiribanReveal()))),
      run(write('kiriban-tampered.json', JSON.stringify(tampered))),
    ]);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    expect(valid.stdout).toContain('✓ キリ番賞');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✗ キリ番賞');
    expect(bad.stdout).toContain('✓ コミットメント一致');
  });

  it('checks the 天井賞 of a /4 file (check 10): exit 0, and 1 when an award is moved to another draw', async () => {
    const tampered = ceilingReveal();
    tampered.draws[3].ceiling = 1;
    tampered.draws[5].ceiling = 1;
    const [valid, bad] = await Promise.all([
      run(write('ceiling.json', JSON.stringify(ceilingReveal()))),
      run(write('ceiling-tampered.json', JSON.stringify(tampered))),
    ]);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    expect(valid.stdout).toContain('✓ 天井賞');
    expect(valid.stdout).toContain('10 項目すべてに合格しました');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✗ 天井賞: 抽選 4 はその会員の 1〜8 口目');
    expect(bad.stdout).toContain('✓ コミットメント一致');
  });

  it("verifies a beacon pack's log: exit 0 with its chain trusted, 1 on a tampered lot, 2 for a part of it or a bad chain file", async () => {
    const examples = path.join(root, 'docs', 'formats', 'examples');
    const chain = path.join(examples, 'beacon-standin-chain.json');
    const tampered = beaconExample();
    tampered.items[3]!.tiers = ['B', 'S']; // it won B, B
    const badChain = { ...exampleChain().info, period: 4 };
    const [valid, pages, untrusted, bad, partial, wrongChain] = await Promise.all([
      run(path.join(examples, 'beacon-sold-out.json'), '--trust-chain', chain),
      run(write('pages.json', JSON.stringify(pagesOf(beaconExample(), 3))), '--trust-chain', chain),
      run(path.join(examples, 'beacon-sold-out.json')),
      run(write('beacon-tampered.json', JSON.stringify(tampered)), '--trust-chain', chain),
      run(write('first-page.json', JSON.stringify(pagesOf(beaconExample(), 1)[0])), '--trust-chain', chain),
      run(path.join(examples, 'beacon-sold-out.json'), '--trust-chain', write('chain.json', JSON.stringify(badChain))),
    ]);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    expect(valid.stdout).toContain('ビーコン抽選');
    expect(valid.stdout).toContain('✓ ビーコンの署名');
    expect(valid.stdout).toContain('✓ 抽選結果の再計算');
    expect(valid.stdout).toContain('検証成功');
    expect(pages.code).toBe(0);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain('✗ ビーコンの出どころ');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✗ 抽選結果の再計算');
    expect(bad.stdout).toContain('✓ 受付票の署名');
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('続きのページがあります');
    expect(wrongChain.code).toBe(2);
    expect(wrongChain.stderr).toContain('drand のチェーン情報ではないか');
    for (const result of [partial, wrongChain]) expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
