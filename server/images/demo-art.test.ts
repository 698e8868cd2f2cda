// Guards the generated demo art in public/demo: up to date, deterministic, small, text-free (the server may have no
// Japanese font to rasterise it with), one picture per demo card, servable by /_img.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { demoArtFiles } from '#scripts/generate-demo-art';
import { DEMO_CARDS } from '#db/demo/cards';
import { createImageRoute } from './index';

const publicDir = path.resolve(import.meta.dirname, '..', '..', 'public');
const cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-art-cache-'));

afterAll(async () => {
  await fs.rm(cacheDir, { recursive: true, force: true });
});

describe('demo art', () => {
  const files = demoArtFiles();

  it('lists every expected file', () => {
    const names = files.map(([p]) => p);
    expect(names.filter((p) => p.startsWith('packs/'))).toHaveLength(12);
    expect(names.filter((p) => p.startsWith('cards/'))).toHaveLength(30);
    expect(names.filter((p) => p.startsWith('banners/'))).toHaveLength(4);
    expect(names.filter((p) => p.startsWith('genres/')).sort()).toEqual(
      ['all', 'duelmasters', 'onepiece', 'pokemon', 'weiss', 'yugioh'].map((id) => `genres/${id}.svg`),
    );
  });

  it('is deterministic and matches the files in public/demo (rerun the generator if not)', async () => {
    expect(demoArtFiles()).toEqual(files);
    for (const [relative, content] of files) {
      expect(await fs.readFile(path.join(publicDir, 'demo', relative), 'utf8'), relative).toBe(content);
    }
  });

  it('keeps every file small and free of text, fonts and external references', () => {
    for (const [relative, content] of files) {
      expect(Buffer.byteLength(content), relative).toBeLessThan(12 * 1024);
      expect(content, relative).not.toMatch(/<text|<image|font-family|href=|<script|<foreignObject/);
    }
  });

  it('gives each demo card its own picture, and every picture to one card', () => {
    const byPath = new Map(files);
    const paths = DEMO_CARDS.map((card) => card.imagePath);
    expect(new Set(paths).size).toBe(DEMO_CARDS.length);
    for (const imagePath of paths) expect(byPath.has(imagePath.replace('/demo/', '')), imagePath).toBe(true);
  });

  it('has the documented sizes', async () => {
    const expected: Record<string, [number, number]> = {
      packs: [1200, 900],
      cards: [630, 880],
      banners: [1200, 500],
      genres: [96, 96],
    };
    for (const [relative] of files) {
      const meta = await sharp(path.join(publicDir, 'demo', relative)).metadata();
      expect([meta.width, meta.height], relative).toEqual(expected[relative.split('/')[0]]);
    }
  });

  it('rasterises through the resizer', async () => {
    const app = createImageRoute({ publicDir, cacheDir });
    for (const src of [
      '/demo/packs/pack-01.svg',
      '/demo/cards/card-08.svg',
      '/demo/banners/banner-02.svg',
      '/demo/genres/all.svg',
    ]) {
      const res = await app.request(`/?src=${encodeURIComponent(src)}&w=640`, { headers: { Accept: 'image/webp' } });
      expect(res.status, src).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 640 });
    }
  });
});
