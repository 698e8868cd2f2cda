// The shop's real documents load their scripts after the first paint (decision 049): no modulepreload
// for the preload scanner, and a module script that adds them and imports the route modules a frame
// later. If a React Router upgrade changed its output so that the rewrite no longer applies, the pages
// would still work but this test fails, so the loss is seen.
import { describe, it, expect } from 'vitest';
import { get, signUpMember } from '#tests/http';

function scriptsOf(html: string) {
  const moduleScript = /<script\b[^>]*\btype="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const preloads = JSON.parse(/const preloads = (\[[^\]]*\]);/.exec(moduleScript)?.[1] ?? '[]') as string[];
  const imports = [...moduleScript.matchAll(/import\("(\/assets\/[^"]+)"\)/g)].map((m) => m[1]!);
  return { moduleScript, preloads, imports };
}

async function expectScriptsAfterPaint(path: string, cookie?: string) {
  const page = await get(path, { cookie, headers: { accept: 'text/html' } });
  expect(page.status, path).toBe(200);
  expect(page.body, path).not.toContain('rel="modulepreload"');
  const { moduleScript, preloads, imports } = scriptsOf(page.body);
  expect(moduleScript, path).toContain('requestAnimationFrame');
  expect(moduleScript, path).not.toMatch(/^import \* as/m);
  // The entry, the framework chunk and the page's own route module are all still loaded, and exist.
  expect(
    preloads.some((href) => /\/entry\.client-/.test(href)),
    path,
  ).toBe(true);
  expect(
    preloads.some((href) => /\/framework-/.test(href)),
    path,
  ).toBe(true);
  expect(imports.length, path).toBeGreaterThanOrEqual(2);
  for (const href of new Set([...preloads, ...imports])) {
    const asset = await get(href);
    expect(asset.status, href).toBe(200);
    expect(asset.headers.get('content-type'), href).toMatch(/javascript/);
  }
}

describe('scripts after the first paint', () => {
  it('on visitors’ pages, cached or not', async () => {
    for (const path of ['/', '/gacha/pokemon', '/gacha/pokemon/stellar-pokemon-001', '/auth/sign_in']) {
      await expectScriptsAfterPaint(path);
      await expectScriptsAfterPaint(path); // the page cache's copy, nonce rewritten
    }
  });

  it('on a member’s pages', async () => {
    const member = await signUpMember('after-paint');
    await expectScriptsAfterPaint('/', member.cookie);
    await expectScriptsAfterPaint('/mypage', member.cookie);
    await expectScriptsAfterPaint('/mypage/draws', member.cookie);
  });
});
