// Titles, canonical links and client recovery rules.
import { describe, it, expect } from 'vitest';
import type { UIMatch } from 'react-router';
import {
  composeTitle,
  pageTitleFromMatches,
  canonicalUrl,
  composeDescription,
  pageDescriptionFromMatches,
  MAX_DESCRIPTION_LENGTH,
} from './page-meta';
import { isChunkLoadError, shouldReloadForChunkError, CHUNK_RELOAD_GUARD_MS } from './client-recovery';
import { shouldSkipPrefetch } from '~/components/AppLink';

const site = { siteName: 'オリパ ステラ', tagline: 'オリパ ステラ｜公平・透明なオンラインオリパ' };

describe('titles', () => {
  it('uses the tagline on / and "title | site" elsewhere', () => {
    expect(composeTitle({ pathname: '/', pageTitle: 'トップ', ...site })).toBe(site.tagline);
    expect(composeTitle({ pathname: '/shop', pageTitle: 'コインショップ', ...site })).toBe(
      'コインショップ | オリパ ステラ',
    );
    expect(composeTitle({ pathname: '/x', pageTitle: null, ...site })).toBe('オリパ ステラ');
  });
  it('takes the deepest title, computing it from loader data', () => {
    const matches = [
      { id: 'root', handle: undefined, loaderData: {} },
      {
        id: 'genre',
        handle: { title: (d: { genre: { name: string } }) => `${d.genre.name}のオリパ一覧` },
        loaderData: { genre: { name: 'ポケモン' } },
      },
    ] as unknown as UIMatch[];
    expect(pageTitleFromMatches(matches)).toBe('ポケモンのオリパ一覧');
  });
  it('builds the canonical link from the origin and the full path', () => {
    expect(canonicalUrl('https://shop.example', '/gacha/pokemon', '?sort=new')).toBe(
      'https://shop.example/gacha/pokemon?sort=new',
    );
  });
});

describe('meta descriptions', () => {
  it("takes the deepest route's own description, not its title", () => {
    const matches = [
      { id: 'root', handle: undefined, loaderData: {} },
      { id: 'layout', handle: { description: 'レイアウトの説明' }, loaderData: {} },
      {
        id: 'pack',
        handle: { title: 'パック', description: (d: { pack: { description: string } }) => d.pack.description },
        loaderData: { pack: { description: '全100口、ハズレなし。' } },
      },
    ] as unknown as UIMatch[];
    expect(pageDescriptionFromMatches(matches)).toBe('全100口、ハズレなし。');
    expect(pageDescriptionFromMatches(matches.slice(0, 1))).toBeNull();
  });
  it("falls back to the site's description when the page has none or only white space", () => {
    expect(composeDescription(null, 'サイトの説明')).toBe('サイトの説明');
    expect(composeDescription(' \n ', 'サイトの説明')).toBe('サイトの説明');
    expect(composeDescription('  全100口、\nハズレなし。 ', 'サイトの説明')).toBe('全100口、 ハズレなし。');
  });
  it('cuts a long description at 160 characters with an ellipsis', () => {
    const long = 'あ'.repeat(500);
    const cut = composeDescription(long, 'x');
    expect([...cut]).toHaveLength(MAX_DESCRIPTION_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('chunk-load recovery', () => {
  it('recognises chunk errors, including Unable to preload CSS', () => {
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/root.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
  it('reloads at most once per path within 10 seconds', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(shouldReloadForChunkError('/shop', 1_000, storage)).toBe(true);
    expect(shouldReloadForChunkError('/shop', 1_000 + CHUNK_RELOAD_GUARD_MS - 1, storage)).toBe(false);
    expect(shouldReloadForChunkError('/gacha/pokemon', 2_000, storage)).toBe(true);
    expect(shouldReloadForChunkError('/shop', 1_000 + CHUNK_RELOAD_GUARD_MS + 1, storage)).toBe(true);
  });
});

describe('prefetch policy', () => {
  it('skips prefetch on save-data and 2g connections only', () => {
    expect(shouldSkipPrefetch({ saveData: true, effectiveType: '4g' })).toBe(true);
    expect(shouldSkipPrefetch({ effectiveType: 'slow-2g' })).toBe(true);
    expect(shouldSkipPrefetch({ effectiveType: '2g' })).toBe(true);
    expect(shouldSkipPrefetch({ effectiveType: '3g' })).toBe(false);
    expect(shouldSkipPrefetch(undefined)).toBe(false);
  });
});
