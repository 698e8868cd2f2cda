// The layers of decision 066 hold because lint refuses a crossing: each snippet below, linted as if it
// stood at that path with the project's own eslint.config.js, must fail (and a door must pass), including
// the forms that once slipped past lint and tsc (an alias that climbs, a dynamic import()).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'layers/no-restricted-dynamic-import')
    .map((m) => m.message);
}

describe('the layers (decision 066)', { timeout: 120_000 }, () => {
  it.each([
    ['server/x.ts', "export { a } from '~/lib/a';\n"],
    ['server/x.ts', "export { a } from '../app/lib/a';\n"],
    ['server/x.ts', "export const a = () => import('~/lib/a');\n"],
    ['modules/wallet/x.ts', "export { a } from '#server/config';\n"],
    ['modules/wallet/x.ts', "export { a } from '~/lib/a';\n"],
    ['modules/wallet/x.ts', "export const a = () => import('#server/logger');\n"],
    [
      'modules/identity/x.server.ts',
      "import type { ShopConfig } from '#server/config';\nexport type A = ShopConfig;\n",
    ],
    ['app/lib/x.server.ts', "export { a } from '#server/draw';\n"],
    ['app/lib/x.server.ts', 'export const a = () => import(`#server/draw`);\n'],
    ['app/lib/x.server.ts', "export { a } from '../../server/draw';\n"],
    ['app/lib/x.server.ts', "export { a } from '~/../modules/wallet/ledger';\n"],
    ['server/x.ts', "export { a } from '#server/../modules/wallet/ledger';\n"],
    ['server/x.ts', "export const a = () => import('#server/../modules/wallet/ledger');\n"],
  ])('refuses %s: %s', async (filePath, code) => {
    expect(await importErrors(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['app/lib/x.server.ts', "export { shopRequestContext } from '#server/context';\n"],
    ['server/x.ts', "export { a } from '#modules/kernel';\n"],
    // The sandbox path loads the development stand-ins only this way.
    ['server/x.ts', "export const a = () => import('#devtools/paypay');\n"],
  ])('lets %s import: %s', async (filePath, code) => {
    expect(await importErrors(filePath, code)).toEqual([]);
  });
});

describe('the sizes (issue 30)', { timeout: 120_000 }, () => {
  const rulesHit = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.map((m) => m.ruleId).filter((id) => id === 'max-lines' || id === 'max-lines-per-function');
  };
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const a${i} = ${i};`).join('\n') + '\n';
  const longFunction = (n: number) =>
    `export function f() {\n${Array.from({ length: n }, (_, i) => `  console.log(${i});`).join('\n')}\n}\n`;

  it('refuses a source file over 500 lines and a function over 150, anywhere outside the tests', async () => {
    expect(await rulesHit('server/x.ts', lines(501))).toContain('max-lines');
    expect(await rulesHit('app/components/X.tsx', lines(501))).toContain('max-lines');
    expect(await rulesHit('modules/wallet/x.ts', longFunction(150))).toContain('max-lines-per-function');
    expect(await rulesHit('server/x.ts', lines(500))).toEqual([]);
    expect(await rulesHit('server/x.ts', longFunction(148))).toEqual([]);
  });

  it('lets a test be as long as its story', async () => {
    expect(await rulesHit('server/x.test.ts', lines(800) + longFunction(300))).toEqual([]);
  });
});
