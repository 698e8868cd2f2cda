// Rich text in Prismic's structured shape. It is rendered by React element by element, never as HTML,
// so stored content cannot inject markup; links are limited to http(s) and site paths.

import type { EmbedField, LinkField, SliceZone } from './fields';

export type RichTextSpan =
  | { start: number; end: number; type: 'strong' | 'em' }
  /** `data` is the built-in store's `{ url }` or a Prismic link field (resolved by the renderer). */
  | { start: number; end: number; type: 'hyperlink'; data: { url: string } | LinkField }
  /** Prismic's custom label: kept as a plain span (no class names from content reach the page). */
  | { start: number; end: number; type: 'label'; data: { label: string } };

export type RichTextBlock =
  | {
      type:
        'heading1' | 'heading2' | 'heading3' | 'heading4' | 'paragraph' | 'preformatted' | 'list-item' | 'o-list-item';
      text: string;
      spans: RichTextSpan[];
    }
  | {
      type: 'image';
      url: string;
      alt: string | null;
      dimensions: { width: number; height: number };
      linkTo?: LinkField;
    }
  | { type: 'embed'; oembed: EmbedField };

export type RichText = RichTextBlock[];

/**
 * Specification section 5: rich text counts as non-empty only if it has text (an image or an embed
 * alone, or blocks of spaces, do not count). Safe on stored data that was never normalised.
 * @example isRichTextFilled([paragraph('  ')]) // false
 */
export function isRichTextFilled(richText: RichText | null | undefined): boolean {
  return (
    Array.isArray(richText) &&
    richText.some((block) => {
      const text = (block as { text?: unknown } | null)?.text;
      return block?.type !== 'image' && block?.type !== 'embed' && typeof text === 'string' && text.trim().length > 0;
    })
  );
}

/**
 * Whether rich text has anything to show: text (isRichTextFilled), or an image or embed block. A body
 * or text slice of only an image is not "filled" by the specification's rule, yet the reader sees it.
 * @example hasRichTextToShow([{ type: 'image', url: '/a.png', alt: null, dimensions: { width: 1, height: 1 } }]) // true
 */
export function hasRichTextToShow(richText: RichText | null | undefined): boolean {
  return (
    isRichTextFilled(richText) ||
    (Array.isArray(richText) && richText.some((block) => block?.type === 'image' || block?.type === 'embed'))
  );
}

/** A stand-in origin for resolving site paths: only whether a path stays on it matters. */
const SITE_ORIGIN = 'https://site.invalid';

/**
 * Only http(s) URLs and site-relative paths survive; anything else (javascript:, data:, mailto:) is dropped.
 * The URL is read the way a browser reads it (WHATWG): spaces and controls at the ends are trimmed,
 * tabs and newlines anywhere are dropped, and a backslash counts as a slash, so `/\host` is the
 * off-site `//host` and is refused.
 * @example safeLinkUrl('/gacha/pokemon') // '/gacha/pokemon'; safeLinkUrl('/\\evil.example') // null
 */
export function safeLinkUrl(url: string): string | null {
  const cleaned = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (cleaned.startsWith('/') || cleaned.startsWith('\\')) {
    // One slash, then anything but another slash (or a backslash, which browsers read as one).
    if (!/^\/(?![/\\])/.test(cleaned)) return null;
    let parsed: URL;
    try {
      parsed = new URL(cleaned, SITE_ORIGIN);
    } catch {
      return null;
    }
    // The cleaned text, not the resolved path: `/.\/host` resolves to the path `//host`, which
    // written out alone would leave the site; the text itself stays on whatever origin it is read against.
    return parsed.origin === SITE_ORIGIN ? cleaned : null;
  }
  try {
    const parsed = new URL(cleaned);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** What editors and operators are told a link may be (issue 28 item 9: https only, as the editors say). */
export const SAVABLE_LINK_MESSAGE = 'リンク先は / で始まるサイト内のパスか https:// のURLにしてください。';

/**
 * What the shop's own editors may save (mail markup, content pages, notices, banners): a site path or an
 * https URL, checked by safeLinkUrl; http:// is refused at saving (rendering still shows an http link an
 * outside CMS sent, as safeLinkUrl allows).
 * @example savableLinkUrl('https://example.jp/a') // 'https://example.jp/a'; savableLinkUrl('http://example.jp') // null
 */
export function savableLinkUrl(url: string): string | null {
  const safe = safeLinkUrl(url);
  return safe && (safe.startsWith('/') || safe.startsWith('https://')) ? safe : null;
}

/**
 * The first link of rich text that savableLinkUrl refuses (its URL), or null when every link may be saved.
 * @example unsavableLinkIn([{ type: 'paragraph', text: 'a', spans: [{ start: 0, end: 1, type: 'hyperlink', data: { url: 'http://x.jp' } }] }]) // 'http://x.jp'
 */
export function unsavableLinkIn(blocks: readonly unknown[]): string | null {
  for (const block of blocks) {
    if (!block || typeof block !== 'object') continue;
    const b = block as { spans?: unknown; linkTo?: unknown };
    const links: unknown[] = [b.linkTo];
    if (Array.isArray(b.spans))
      for (const span of b.spans as { type?: unknown; data?: unknown }[])
        if (span && span.type === 'hyperlink') links.push(span.data);
    for (const link of links) {
      if (!link || typeof link !== 'object' || !('url' in link)) continue;
      const url = (link as { url: unknown }).url;
      if (typeof url === 'string' && url !== '' && savableLinkUrl(url) === null) return url;
    }
  }
  return null;
}

/**
 * Where a link field (or the built-in store's `{ url }`) leads, checked by safeLinkUrl; null for an
 * empty or broken link. A document link goes to its own URL, else /{uid} (pages and special pages).
 * @example linkUrl({ link_type: 'Document', id: 'X', uid: 'terms', type: 'page' }) // '/terms'
 */
export function linkUrl(link: LinkField | { url: string } | null | undefined): string | null {
  if (!link) return null;
  if (!('link_type' in link)) return safeLinkUrl(link.url);
  switch (link.link_type) {
    case 'Web':
    case 'Media':
      return link.url ? safeLinkUrl(link.url) : null;
    case 'Document':
      if (link.isBroken) return null;
      if (link.url) return safeLinkUrl(link.url);
      return link.uid && (link.type === 'page' || link.type === 'special') ? safeLinkUrl(`/${link.uid}`) : null;
    default:
      return null;
  }
}

/** Shorthands for writing content in code (demo data, tests). */
export const paragraph = (text: string): RichTextBlock => ({ type: 'paragraph', text, spans: [] });
export const heading = (text: string, level: 2 | 3 = 2): RichTextBlock => ({
  type: level === 2 ? 'heading2' : 'heading3',
  text,
  spans: [],
});
export const listItem = (text: string): RichTextBlock => ({ type: 'list-item', text, spans: [] });

export interface ContentPageData {
  title: string;
  description?: string;
  body: RichText;
  /** Special pages: a hero image. */
  heroImage?: string;
  /** The slice zone after the body (the editor's slices, docs/decisions/040). */
  slices?: SliceZone;
}

export interface BannerData {
  title: string;
  image: string;
  /** A site path (or https URL) the banner leads to. */
  link: string;
  order: number;
  /** The period as the editor writes it, shown on the banner (「12月1日〜12月25日」); none for a standing banner. */
  period?: string;
}

// The browser entry (#modules/content/rich-text) carries the content types pages render.
export type { ContentDocument, PageData, NoticeData, HomeBanner } from './source';
export type * from './fields';
