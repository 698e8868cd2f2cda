// robots.txt and sitemap.xml: the indexable pages only (never the noindex prefixes).
import { eq, and, isNotNull, inArray, lte } from 'drizzle-orm';
import type { ShopServices } from './services';
import { NOINDEX_PREFIXES } from '../app/guards/rules';
import { genres, gachas, contentDocuments } from '../db/schema';

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
  const [genreRows, gachaRows, pageRows] = await Promise.all([
    db.select({ id: genres.id }).from(genres).where(eq(genres.visible, true)),
    db
      .select({ id: gachas.id, genreId: gachas.genreId })
      .from(gachas)
      .where(inArray(gachas.status, ['on_sale', 'sold_out', 'ended', 'scheduled'])),
    db
      .select({ uid: contentDocuments.uid })
      .from(contentDocuments)
      .where(and(inArray(contentDocuments.type, ['page', 'special']), isNotNull(contentDocuments.publishedAt), lte(contentDocuments.publishedAt, new Date()))),
  ]);
  const paths = [
    '/',
    ...genreRows.map((g) => `/gacha/${g.id}`),
    ...gachaRows.map((g) => `/gacha/${g.genreId}/${g.id}`),
    ...pageRows.map((p) => `/${p.uid}`),
  ];
  const urls = paths.map((p) => `  <url><loc>${escapeXml(config.PUBLIC_ORIGIN + p)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
