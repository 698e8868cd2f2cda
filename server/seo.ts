// robots.txt and sitemap.xml: the indexable pages only (never the noindex prefixes).
import type { ShopServices } from './services';
import { NOINDEX_PREFIXES } from '../app/guards/rules';
import { listGenres, listPublicPackPaths } from '#modules/gacha';
import { listPublishedPageUids } from '#modules/content';

/** @example robotsTxt('https://shop.example') */
export function robotsTxt(origin: string): string {
  const disallowed = NOINDEX_PREFIXES.map((p) => `Disallow: ${p}`).join('\n');
  return `User-agent: *\nAllow: /\n${disallowed}\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch]!);

/** The home page, every visible genre, every public pack and every published content page. */
export async function sitemapXml(services: ShopServices): Promise<string> {
  const { db, config } = services;
  const [genreRows, packRows, pageUids] = await Promise.all([
    listGenres(db),
    listPublicPackPaths(db),
    listPublishedPageUids(db),
  ]);
  const paths = [
    '/',
    ...genreRows.map((g) => `/gacha/${g.id}`),
    ...packRows.map((g) => `/gacha/${g.genreId}/${g.id}`),
    ...pageUids.map((uid) => `/${uid}`),
  ];
  const urls = paths.map((p) => `  <url><loc>${escapeXml(config.PUBLIC_ORIGIN + p)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
