// The browser door stays browser-safe: every file behind `#modules/beacon/browser` imports only its own
// files, zod and noble's pure-JavaScript packages — no `node:` module, no other door, nothing of the server.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ALLOWED_PACKAGES = [/^zod$/, /^@noble\/curves\/[\w-]+\.js$/, /^@noble\/hashes\/[\w-]+\.js$/];

/** Every import and re-export specifier of a TypeScript file (type-only ones included: harmless either way). */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/g)].map((match) => match[1]!);
}

/** The files reachable from `entry` through relative imports, and the packages they name. */
function reach(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), `${specifier}.ts`));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the beacon module’s browser door', () => {
  it('reaches only browser-safe code', () => {
    const { files, packages } = reach(path.join(import.meta.dirname, 'browser.ts'));
    expect([...files].map((file) => path.basename(file)).sort()).toEqual([
      'browser.ts',
      'chain-info.ts',
      'client.ts',
      'rounds.ts',
      'verify.ts',
    ]);
    expect([...packages].filter((name) => !ALLOWED_PACKAGES.some((allowed) => allowed.test(name)))).toEqual([]);
  });

  it('would see a node import (the check can fail)', () => {
    const { packages } = reach(path.join(import.meta.dirname, 'browser-safe.test.ts'));
    expect([...packages]).toContain('node:fs');
  });
});
