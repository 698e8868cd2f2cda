// robots.txt and sitemap.xml: the indexable pages only (never the noindex prefixes).
import type { ShopServices } from './services';
import { NOINDEX_PREFIXES } from '#modules/kernel/navigation';
import { listGenres, listPublicPackPaths } from '#modules/gacha';
import { contentOf } from './page-content';

/** @example robotsTxt('https://shop.example') */
export function robotsTxt(origin: string): string {
  const disallowed = NOINDEX_PREFIXES.map((p) => `Disallow: ${p}`).join('\n');
  return `User-agent: *\nAllow: /\n${disallowed}\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch]!);

/**
 * The home page, every visible genre, every public pack, and every published content page and notice
 * (from the content source the settings chose, decision 039), with its publication date as lastmod.
 */
export async function sitemapXml(services: ShopServices): Promise<string> {
  const { db, config } = services;
  const content = contentOf(services);
  const [genreRows, packRows, pages, notices] = await Promise.all([
    listGenres(db),
    listPublicPackPaths(db),
    content.listPages(),
    content.listNotices(),
  ]);
  const entries: { path: string; lastmod?: string | null }[] = [
    { path: '/' },
    ...genreRows.map((g) => ({ path: `/gacha/${g.id}` })),
    ...packRows.map((g) => ({ path: `/gacha/${g.genreId}/${g.id}` })),
    ...pages.flatMap((page) => (page.url ? [{ path: page.url, lastmod: page.publishedAt }] : [])),
    ...(notices.length ? [{ path: '/notices' }] : []),
    ...notices.flatMap((notice) => (notice.url ? [{ path: notice.url, lastmod: notice.publishedAt }] : [])),
  ];
  const seen = new Set<string>();
  const urls = entries
    .filter((entry) => !seen.has(entry.path) && seen.add(entry.path))
    .map((entry) => {
      const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod.slice(0, 10)}</lastmod>` : '';
      return `  <url><loc>${escapeXml(config.PUBLIC_ORIGIN + entry.path)}</loc>${lastmod}</url>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
