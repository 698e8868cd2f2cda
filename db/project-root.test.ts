import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRootOf } from './project-root';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-project-root-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('projectRootOf', () => {
  it('finds the folder with db/migrations from the sources and from the compiled server alike', () => {
    fs.mkdirSync(path.join(root, 'db', 'migrations'), { recursive: true });
    fs.mkdirSync(path.join(root, 'build', 'server-runtime', 'chunks'), { recursive: true });
    const at = (...parts: string[]) => projectRootOf(pathToFileURL(path.join(root, ...parts)).href);
    expect(at('db', 'client.ts')).toBe(root);
    expect(at('server', 'main.ts')).toBe(root);
    expect(at('build', 'server-runtime', 'chunks', 'main-X.js')).toBe(root);
  });

  it('finds this project from its own module', () => {
    expect(fs.existsSync(path.join(projectRootOf(import.meta.url), 'package.json'))).toBe(true);
  });

  it('throws when no folder above has db/migrations', () => {
    const lonely = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-no-project-'));
    try {
      expect(() => projectRootOf(pathToFileURL(path.join(lonely, 'x.js')).href)).toThrow(/No project folder/);
    } finally {
      fs.rmSync(lonely, { recursive: true, force: true });
    }
  });
});
