// Prismic documents (custom types page, special, banner, notice: docs/prismic/customtypes) read into the
// shop's ContentDocument. Every field is checked for its shape, because a repository's types can be edited
// in Prismic's editor at any time: a field that is missing or of another kind reads as empty, never throws.
// URLs: the link resolver below (/{uid}, /notices/{uid}), also sent to Prismic as its route resolver so
// links between documents come back with their url filled in.
import { asDate, asText, type PrismicDocument, type Route } from '@prismicio/client';
import type { EmbedField, ImageField, LinkField, Slice, SliceZone, TableField, TableRow } from '../fields';
import { SLICE_TYPES } from '../fields';
import { linkUrl, type BannerData, type RichText, type RichTextBlock, type RichTextSpan } from '../rich-text';
import type { ContentDocument, ContentDocumentType, NoticeData, PageData } from '../source';

/** The route resolver sent with every query (Prismic fills `url` of documents and document links from it). */
export const PRISMIC_ROUTES: Route[] = [
  { type: 'page', path: '/:uid' },
  { type: 'special', path: '/:uid' },
  { type: 'notice', path: '/notices/:uid' },
];

/**
 * A document's path on the site: /{uid} for pages and special pages, /notices/{uid} for notices.
 * @example prismicLinkResolver({ type: 'notice', uid: 'maintenance-1201' }) // '/notices/maintenance-1201'
 */
export function prismicLinkResolver(document: { type: string; uid?: string | null }): string | null {
  if (!document.uid) return null;
  if (document.type === 'page' || document.type === 'special') return `/${document.uid}`;
  if (document.type === 'notice') return `/notices/${document.uid}`;
  return null;
}

/** A banner's data as Prismic gives it: the carousel's fields and its switch and window (read at `now`). */
export type PrismicBannerData = BannerData & {
  alt: string;
  active: boolean;
  startsAt: string | null;
  endsAt: string | null;
};

type Field = unknown;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Key text, or a title / rich text field read as plain text; undefined when empty. */
function plainText(value: Field): string | undefined {
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? asText(richText(value) as never, { separator: ' ' })
        : '';
  return text.trim() ? text.trim() : undefined;
}

function isoDate(value: Field): string | null {
  if (typeof value !== 'string' || !value) return null;
  const date = asDate(value as `${number}-${number}-${number}T${number}:${number}:${number}+${number}`);
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

function imageField(value: Field): ImageField | undefined {
  if (!isRecord(value) || typeof value.url !== 'string' || !value.url) return undefined;
  const dimensions = isRecord(value.dimensions) ? value.dimensions : {};
  return {
    url: value.url,
    alt: typeof value.alt === 'string' ? value.alt : null,
    dimensions: {
      width: typeof dimensions.width === 'number' ? dimensions.width : 0,
      height: typeof dimensions.height === 'number' ? dimensions.height : 0,
    },
  };
}

function linkField(value: Field): LinkField | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.link_type) {
    case 'Web':
    case 'Media':
      return typeof value.url === 'string' && value.url
        ? {
            link_type: value.link_type,
            url: value.url,
            ...(typeof value.target === 'string' ? { target: value.target } : {}),
          }
        : { link_type: 'Any' };
    case 'Document': {
      if (typeof value.id !== 'string' || typeof value.type !== 'string') return { link_type: 'Any' };
      const uid = typeof value.uid === 'string' ? value.uid : undefined;
      const url = typeof value.url === 'string' ? value.url : prismicLinkResolver({ type: value.type, uid });
      return { link_type: 'Document', id: value.id, type: value.type, uid, url, isBroken: value.isBroken === true };
    }
    default:
      return { link_type: 'Any' };
  }
}

function embedField(value: Field): EmbedField | undefined {
  if (!isRecord(value) || typeof value.embed_url !== 'string' || !value.embed_url) return undefined;
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  return {
    embed_url: value.embed_url,
    type: text('type') ?? undefined,
    provider_name: text('provider_name'),
    title: text('title'),
    html: text('html'),
    thumbnail_url: text('thumbnail_url'),
  };
}

const TEXT_BLOCKS = new Set([
  'heading1',
  'heading2',
  'heading3',
  'heading4',
  'heading5',
  'heading6',
  'paragraph',
  'preformatted',
  'list-item',
  'o-list-item',
]);

function span(value: Field): RichTextSpan | null {
  if (!isRecord(value) || typeof value.start !== 'number' || typeof value.end !== 'number') return null;
  const { start, end } = value;
  if (value.type === 'strong' || value.type === 'em') return { start, end, type: value.type };
  if (value.type === 'hyperlink') {
    const data = linkField(value.data);
    return data ? { start, end, type: 'hyperlink', data } : null;
  }
  if (value.type === 'label' && isRecord(value.data) && typeof value.data.label === 'string')
    return { start, end, type: 'label', data: { label: value.data.label } };
  return null;
}

/** Prismic rich text, block by block; unknown blocks and spans are dropped (h5/h6 read as h4). */
function richText(value: Field): RichText {
  if (!Array.isArray(value)) return [];
  return value.flatMap((block): RichTextBlock[] => {
    if (!isRecord(block) || typeof block.type !== 'string') return [];
    if (TEXT_BLOCKS.has(block.type) && typeof block.text === 'string') {
      const type = (block.type === 'heading5' || block.type === 'heading6' ? 'heading4' : block.type) as Extract<
        RichTextBlock,
        { text: string }
      >['type'];
      const spans = Array.isArray(block.spans) ? block.spans.map(span).filter((s) => s !== null) : [];
      return [{ type, text: block.text, spans }];
    }
    if (block.type === 'image') {
      const image = imageField(block);
      const linkTo = linkField(block.linkTo);
      return image ? [{ type: 'image', ...image, ...(linkTo && linkTo.link_type !== 'Any' ? { linkTo } : {}) }] : [];
    }
    if (block.type === 'embed') {
      const oembed = embedField(block.oembed);
      return oembed ? [{ type: 'embed', oembed }] : [];
    }
    return [];
  });
}

function tableRows(value: Field): TableRow[] {
  if (!isRecord(value) || !Array.isArray(value.rows)) return [];
  return value.rows.filter(isRecord).map((row) => ({
    ...(typeof row.key === 'string' ? { key: row.key } : {}),
    cells: (Array.isArray(row.cells) ? row.cells : []).filter(isRecord).map((cell) => ({
      ...(typeof cell.key === 'string' ? { key: cell.key } : {}),
      type: cell.type === 'header' ? ('header' as const) : ('data' as const),
      content: richText(cell.content),
    })),
  }));
}

function tableField(value: Field): TableField | undefined {
  if (!isRecord(value)) return undefined;
  const body = tableRows(value.body);
  const head = tableRows(value.head);
  if (!body.length && !head.length) return undefined;
  return { ...(head.length ? { head: { rows: head } } : {}), body: { rows: body } };
}

/** The slice zone: only the shop's five slice types, each with the fields it needs. */
function sliceZone(value: Field): SliceZone {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): Slice[] => {
    if (!isRecord(raw) || !SLICE_TYPES.includes(raw.slice_type as Slice['slice_type'])) return [];
    const primary = isRecord(raw.primary) ? raw.primary : {};
    const base = {
      ...(typeof raw.id === 'string' ? { id: raw.id } : {}),
      slice_label: typeof raw.slice_label === 'string' ? raw.slice_label : null,
      ...(typeof raw.variation === 'string' ? { variation: raw.variation } : {}),
      items: [] as never[],
    };
    const caption = plainText(primary.caption) ?? null;
    switch (raw.slice_type as Slice['slice_type']) {
      case 'text':
        return [{ ...base, slice_type: 'text', primary: { text: richText(primary.text) } }];
      case 'image': {
        const image = imageField(primary.image);
        const link = linkField(primary.link);
        return image ? [{ ...base, slice_type: 'image', primary: { image, caption, ...(link ? { link } : {}) } }] : [];
      }
      case 'embed': {
        const embed = embedField(primary.embed);
        return embed ? [{ ...base, slice_type: 'embed', primary: { embed, caption } }] : [];
      }
      case 'table': {
        const table = tableField(primary.table);
        return table ? [{ ...base, slice_type: 'table', primary: { table, caption } }] : [];
      }
      case 'button': {
        const label = plainText(primary.label);
        const link = linkField(primary.link);
        return label && link && link.link_type !== 'Any'
          ? [{ ...base, slice_type: 'button', primary: { label, link } }]
          : [];
      }
    }
  });
}

function header(document: PrismicDocument, type: ContentDocumentType) {
  return {
    id: document.id,
    uid: document.uid as string,
    type,
    tags: Array.isArray(document.tags) ? document.tags.filter((t) => typeof t === 'string') : [],
    lang: typeof document.lang === 'string' ? document.lang : 'ja-jp',
    url: prismicLinkResolver({ type, uid: document.uid }),
    publishedAt: isoDate(document.last_publication_date),
  };
}

export type MappedDocument =
  ContentDocument<PageData> | ContentDocument<NoticeData> | (ContentDocument<PrismicBannerData> & { type: 'banner' });

/**
 * One Prismic document as the shop reads it, or null for another custom type, a document without a uid,
 * or a banner without its image.
 * @example mapPrismicDocument(await client.getByID(id))?.data.title
 */
export function mapPrismicDocument(document: PrismicDocument): MappedDocument | null {
  if (!isRecord(document) || typeof document.id !== 'string' || typeof document.uid !== 'string' || !document.uid)
    return null;
  const data: Record<string, unknown> = isRecord(document.data) ? document.data : {};
  switch (document.type) {
    case 'page':
    case 'special': {
      const heroImage = imageField(data.hero_image);
      const description = plainText(data.description);
      const slices = sliceZone(data.slices);
      const footerNote = plainText(data.footer_note);
      const page: PageData = {
        title: plainText(data.title) ?? document.uid,
        ...(description ? { description } : {}),
        ...(heroImage ? { heroImage } : {}),
        body: richText(data.body),
        ...(slices.length ? { slices } : {}),
        ...(footerNote ? { footerNote } : {}),
      };
      return { ...header(document, document.type), data: page };
    }
    case 'notice': {
      const notice: NoticeData = {
        title: plainText(data.title) ?? document.uid,
        body: richText(data.body),
        startsAt: isoDate(data.starts_at),
        endsAt: isoDate(data.ends_at),
        important: data.important === true,
      };
      return { ...header(document, 'notice'), data: notice };
    }
    case 'banner': {
      const image = imageField(data.image);
      if (!image) return null;
      const title = plainText(data.title) ?? document.uid;
      const period = plainText(data.period);
      const banner: PrismicBannerData = {
        title,
        image: image.url,
        link: linkUrl(linkField(data.link)) ?? '/',
        order: typeof data.order === 'number' && Number.isFinite(data.order) ? data.order : 0,
        ...(period ? { period } : {}),
        alt: plainText(data.alt) ?? image.alt ?? title,
        active: data.active !== false,
        startsAt: isoDate(data.starts_at),
        endsAt: isoDate(data.ends_at),
      };
      return { ...header(document, 'banner'), type: 'banner', data: banner };
    }
    default:
      return null;
  }
}
