// Prismic documents read into the shop's ContentDocument, and the custom types operators import
// (docs/prismic/customtypes) kept in step with what the mapping reads.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prismicDocument } from '#devtools/standins/prismic';
import { SLICE_TYPES } from '../fields';
import { mapPrismicDocument, prismicLinkResolver } from './documents';

const map = (document: ReturnType<typeof prismicDocument>) => mapPrismicDocument(document as never);

describe('mapPrismicDocument', () => {
  it('reads a title from key text or a title field, and keeps only the rich text the renderer knows', () => {
    const keyText = map(prismicDocument('page', 'a', { title: '  特商法  ', body: [] }));
    expect(keyText?.data).toMatchObject({ title: '特商法' });
    const page = map(
      prismicDocument('page', 'terms', {
        title: [{ type: 'heading1', text: '利用規約', spans: [] }],
        body: [
          { type: 'heading5', text: '小見出し', spans: [] },
          {
            type: 'paragraph',
            text: '規約とプライバシー',
            spans: [
              { start: 0, end: 2, type: 'strong' },
              {
                start: 3,
                end: 9,
                type: 'hyperlink',
                data: { link_type: 'Document', id: 'P', type: 'page', uid: 'privacy' },
              },
              { start: 0, end: 1, type: 'unknown-mark' },
            ],
          },
          { type: 'image', url: 'https://images.prismic.io/x.png', alt: null, dimensions: { width: 10, height: 5 } },
          { type: 'embed', oembed: { embed_url: 'https://www.youtube.com/watch?v=abc', html: '<iframe></iframe>' } },
          { type: 'script', text: 'alert(1)' },
        ],
      }),
    );
    expect(page).toMatchObject({ type: 'page', uid: 'terms', url: '/terms', publishedAt: '2026-11-01T00:00:00.000Z' });
    expect(page?.data).toEqual({
      title: '利用規約',
      body: [
        { type: 'heading4', text: '小見出し', spans: [] },
        {
          type: 'paragraph',
          text: '規約とプライバシー',
          spans: [
            { start: 0, end: 2, type: 'strong' },
            {
              start: 3,
              end: 9,
              type: 'hyperlink',
              data: { link_type: 'Document', id: 'P', type: 'page', uid: 'privacy', url: '/privacy', isBroken: false },
            },
          ],
        },
        { type: 'image', url: 'https://images.prismic.io/x.png', alt: null, dimensions: { width: 10, height: 5 } },
        {
          type: 'embed',
          oembed: {
            embed_url: 'https://www.youtube.com/watch?v=abc',
            type: undefined,
            provider_name: null,
            title: null,
            html: '<iframe></iframe>',
            thumbnail_url: null,
          },
        },
      ],
    });
  });

  it('reads a table slice with header cells, and drops an empty table', () => {
    const cell = (type: string, text: string) => ({
      key: text,
      type,
      content: [{ type: 'paragraph', text, spans: [] }],
    });
    const page = map(
      prismicDocument('special', 'odds', {
        title: '排出率',
        hero_image: { url: 'https://images.prismic.io/hero.png', alt: '特設', dimensions: { width: 800, height: 400 } },
        slices: [
          {
            slice_type: 'table',
            primary: {
              table: {
                head: { rows: [{ key: 'h', cells: [cell('header', '賞')] }] },
                body: { rows: [{ key: 'r', cells: [cell('data', 'S賞')] }] },
              },
              caption: '排出表',
            },
            items: [],
          },
          { slice_type: 'table', primary: { table: null }, items: [] },
        ],
      }),
    );
    expect(page?.url).toBe('/odds');
    expect(page?.data).toMatchObject({
      heroImage: { url: 'https://images.prismic.io/hero.png', alt: '特設', dimensions: { width: 800, height: 400 } },
      slices: [
        {
          slice_type: 'table',
          primary: {
            caption: '排出表',
            table: {
              head: { rows: [{ key: 'h', cells: [{ type: 'header', content: [{ text: '賞' }] }] }] },
              body: { rows: [{ key: 'r', cells: [{ type: 'data', content: [{ text: 'S賞' }] }] }] },
            },
          },
        },
      ],
    });
    expect((page?.data as { slices: unknown[] }).slices).toHaveLength(1);
  });

  it('refuses documents it cannot serve, and resolves links as the routes do', () => {
    expect(map(prismicDocument('settings', 'site', {}))).toBeNull();
    expect(map({ ...prismicDocument('page', 'x', {}), uid: null } as never)).toBeNull();
    expect(map(prismicDocument('banner', 'no-image', { title: '画像なし' }))).toBeNull();
    expect(
      map(
        prismicDocument('banner', 'js', {
          image: { url: '/b.webp' },
          link: { link_type: 'Web', url: 'javascript:alert(1)' },
        }),
      )?.data,
    ).toMatchObject({ link: '/' });
    expect(prismicLinkResolver({ type: 'notice', uid: 'n1' })).toBe('/notices/n1');
    expect(prismicLinkResolver({ type: 'banner', uid: 'b1' })).toBeNull();
  });
});

describe('the custom types in docs/prismic/customtypes', () => {
  const typeFile = (id: string) =>
    JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/prismic/customtypes', `${id}.json`), 'utf8'),
    );
  const fieldsOf = (id: string) =>
    typeFile(id).json.Main as Record<string, { type: string; config: Record<string, any> }>;

  it('declare every field the mapping reads, of the kind it reads', () => {
    for (const id of ['page', 'special', 'banner', 'notice'])
      expect(typeFile(id)).toMatchObject({ id, repeatable: true });
    const kinds = (id: string) =>
      Object.fromEntries(Object.entries(fieldsOf(id)).map(([name, field]) => [name, field.type]));
    const page = { uid: 'UID', title: 'StructuredText', description: 'Text', body: 'StructuredText', slices: 'Slices' };
    // A page may carry the footer's line (the kobutsu page's 古物営業法 display, decision 039).
    expect(kinds('page')).toEqual({ ...page, footer_note: 'Text' });
    expect(kinds('special')).toEqual({ ...page, hero_image: 'Image' });
    expect(kinds('banner')).toEqual({
      uid: 'UID',
      title: 'Text',
      image: 'Image',
      alt: 'Text',
      link: 'Link',
      order: 'Number',
      period: 'Text',
      active: 'Boolean',
      starts_at: 'Timestamp',
      ends_at: 'Timestamp',
    });
    expect(kinds('notice')).toEqual({
      uid: 'UID',
      title: 'Text',
      body: 'StructuredText',
      important: 'Boolean',
      starts_at: 'Timestamp',
      ends_at: 'Timestamp',
    });
    expect(Object.keys(fieldsOf('page').slices!.config.choices)).toEqual([...SLICE_TYPES]);
  });
});
