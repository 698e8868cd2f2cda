// The specification's field kinds (section 3: rich text, image, link, embed, table and slice zones) in
// Prismic's document shapes, so the built-in store and Prismic hand the pages the same values.
// Values are data, never HTML: app/components/content renders them element by element, and every URL
// passes safeLinkUrl (or the embed allow-list) on the way out. Shapes: https://prismic.io/docs/fields
import type { RichText } from './rich-text';

/** An image field: the URL, the alternative text and the intrinsic size (for width/height and layout). */
export interface ImageField {
  url: string;
  alt: string | null;
  dimensions: { width: number; height: number };
}

/**
 * A link field. 'Web' is an absolute URL or a site path; 'Document' points at another document and is
 * resolved to its URL (/{uid}); 'Media' is a file; 'Any' is an empty link.
 */
export type LinkField =
  | { link_type: 'Web'; url: string; target?: string }
  | { link_type: 'Document'; id: string; uid?: string; type: string; url?: string | null; isBroken?: boolean }
  | { link_type: 'Media'; url: string; name?: string; kind?: string }
  | { link_type: 'Any' };

/**
 * An embed (oEmbed) field. Only `embed_url` is trusted: the provider's `html` is never rendered. The
 * page recognises allowed providers (YouTube, X) by the URL and loads them only after a click.
 */
export interface EmbedField {
  embed_url: string;
  type?: string;
  provider_name?: string | null;
  title?: string | null;
  html?: string | null;
  thumbnail_url?: string | null;
}

/** A table field: rows of cells whose content is rich text; header cells are marked. */
export interface TableField {
  head?: { rows: TableRow[] };
  body: { rows: TableRow[] };
}
export interface TableRow {
  key?: string;
  cells: { key?: string; type: 'header' | 'data'; content: RichText }[];
}

/** A slice in a slice zone: `slice_type` picks the component; `primary` holds its fields, `items` repeats. */
export interface SliceBase<Type extends string, Primary, Item = Record<string, never>> {
  id?: string;
  slice_type: Type;
  slice_label?: string | null;
  variation?: string;
  version?: string;
  primary: Primary;
  items: Item[];
}

/** The slices editors can add to a page, in the order the editor offers them. */
export type Slice =
  | SliceBase<'text', { text: RichText }>
  | SliceBase<'image', { image: ImageField; caption?: string | null; link?: LinkField }>
  | SliceBase<'embed', { embed: EmbedField; caption?: string | null }>
  | SliceBase<'table', { table: TableField; caption?: string | null }>
  | SliceBase<'button', { label: string; link: LinkField }>;

export type SliceType = Slice['slice_type'];
export const SLICE_TYPES = ['text', 'image', 'embed', 'table', 'button'] as const satisfies readonly SliceType[];
export const SLICE_LABELS: Record<SliceType, string> = {
  text: '文章',
  image: '画像',
  embed: '埋め込み（YouTube・X）',
  table: '表',
  button: 'ボタンリンク',
};

/** A slice zone: an ordered list of slices. */
export type SliceZone = Slice[];
