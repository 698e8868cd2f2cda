// The content editor's payload (docs/decisions/040): the editor's HTML becomes structured rich text on
// the server (unsafe markup dropped), table cells plain text → paragraphs with a header row, notices'
// Japan-time fields → instants; and a stored version loads back into the same fields.
import { describe, it, expect } from 'vitest';
import type { PageData } from '#modules/content';
import { draftOfPayload, editorPayloadOf, type EditorPayload } from './admin-content.server';

const payload = (extra: Partial<EditorPayload> = {}): EditorPayload => ({
  uid: 'guide/table',
  tags: 'guide, 送料',
  title: '送料のご案内',
  description: '送料について',
  footerNote: '',
  heroImage: '',
  bodyHtml:
    '<h2>はじめに</h2><p>本文は<strong>大事</strong>です<script>alert(1)</script></p><p><a href="javascript:alert(1)">x</a></p>',
  startsAt: '',
  endsAt: '',
  important: false,
  slices: [
    {
      kind: 'table',
      header: true,
      rows: [
        ['項目', '内容'],
        ['送料', '無料\n2行目'],
      ],
      caption: '',
    },
    { kind: 'button', label: 'ガチャへ', url: '/gacha/pokemon' },
  ],
  ...extra,
});

describe('the editor payload', () => {
  it('turns the editor HTML and the slices into a page draft, and loads it back', () => {
    const draft = draftOfPayload('page', payload());
    if ('error' in draft) throw new Error(draft.error);
    expect(draft.uid).toBe('guide/table');
    expect(draft.tags).toEqual(['guide', '送料']);
    const data = draft.data as PageData;
    expect(data.body[0]).toMatchObject({ type: 'heading2', text: 'はじめに' });
    expect(JSON.stringify(data.body)).not.toContain('alert');
    expect(JSON.stringify(data.body)).not.toContain('javascript');
    const table = data.slices![0]!;
    expect(table.slice_type).toBe('table');
    if (table.slice_type !== 'table') return;
    expect(table.primary.table.head?.rows[0]?.cells.map((c) => [c.type, c.content[0]?.type])).toEqual([
      ['header', 'paragraph'],
      ['header', 'paragraph'],
    ]);
    expect(table.primary.table.body.rows[0]?.cells[1]?.content.map((b) => ('text' in b ? b.text : ''))).toEqual([
      '無料',
      '2行目',
    ]);

    const loaded = editorPayloadOf({ uid: draft.uid, tags: draft.tags, data: draft.data });
    expect(loaded.slices[0]).toEqual({
      kind: 'table',
      header: true,
      rows: [
        ['項目', '内容'],
        ['送料', '無料\n2行目'],
      ],
      caption: '',
    });
    expect(loaded.slices[1]).toEqual({ kind: 'button', label: 'ガチャへ', url: '/gacha/pokemon' });
    expect(loaded.bodyHtml).toContain('<h2>はじめに</h2>');
    expect(loaded.bodyHtml).toContain('<strong>大事</strong>');
    expect(loaded.tags).toBe('guide, 送料');
  });

  it("keeps a page's footer line through a save and a reload (the kobutsu page's 古物営業法 display)", () => {
    const line = '古物商許可 東京都公安委員会 第301234567890号';
    const draft = draftOfPayload('page', payload({ footerNote: `  ${line} ` }));
    if ('error' in draft) throw new Error(draft.error);
    expect((draft.data as PageData).footerNote).toBe(line);
    expect(editorPayloadOf({ uid: draft.uid, tags: draft.tags, data: draft.data }).footerNote).toBe(line);
    const special = draftOfPayload('special', payload({ uid: 'x', footerNote: line }));
    if ('error' in special) throw new Error(special.error);
    expect((special.data as PageData).footerNote).toBeUndefined();
  });

  it('reads a notice window in Japan time and refuses a shape that is not the editor’s', () => {
    const draft = draftOfPayload('notice', payload({ uid: 'w', startsAt: '2026-12-01T09:00', important: true }));
    if ('error' in draft) throw new Error(draft.error);
    expect(draft.data).toMatchObject({ startsAt: '2026-12-01T00:00:00.000Z', endsAt: null, important: true });
    expect(editorPayloadOf(draft).startsAt).toBe('2026-12-01T09:00');
    expect(draftOfPayload('page', { slices: [{ kind: 'script' }] })).toHaveProperty('error');
    expect(draftOfPayload('page', null)).toHaveProperty('error');
  });
});
