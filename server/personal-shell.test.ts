// The members' shell's answers as bytes (decision 077): the gzip spliced from pieces deflated once and the
// member's texts as stored blocks is one valid gzip member whose content is exactly the filled page.
import zlib from 'node:zlib';
import { describe, it, expect } from 'vitest';
import {
  drawMissingMarkers,
  PERSONAL_JSON_MARKER,
  PERSONAL_MARKERS,
  SHELL_UNSUPPORTED_MARKER,
  type PersonalView,
} from '#modules/kernel/personal-holes';
import { filledBody, shellPartsOf } from './personal-shell';
import { fillPersonalHoles } from './personal-fill';
import type { CachedPage } from './page-cache';

const pageOf = (html: string): CachedPage => ({
  status: 200,
  headers: [],
  body: Buffer.from(html, 'utf8'),
  scriptHashes: [],
  storedAt: 0,
  encoded: {},
});

const view = (total: number, name = 'かいいん'): PersonalView => ({
  member: { id: `m-${total}`, name, role: 'user' },
  wallet: { paid: total, free: 0, total },
  unreadMails: total % 7,
});

describe('filled answers', () => {
  const filler = 'ラインナップ・オッズ '.repeat(4000);
  const shell = [
    '<!DOCTYPE html><html><body>',
    `<script type="application/json" id="oripa-personal">${PERSONAL_JSON_MARKER}</script>`,
    `<header><b>${PERSONAL_MARKERS['wallet.total']}</b><span class="${PERSONAL_MARKERS['bell.badgeDisplay']}">${PERSONAL_MARKERS['bell.badge']}</span></header>`,
    filler,
    `<p class="${drawMissingMarkers(30000)['draw.missingDisplay']}">${drawMissingMarkers(30000)['draw.missing']}${drawMissingMarkers(30000)['draw.missingUnit']}</p>`,
    filler,
    `<span>${PERSONAL_MARKERS['bell.label']}</span></body></html>`,
  ].join('');

  it('gives the filled page plain, and as gzip that any inflater reads back to the same bytes', () => {
    const parts = shellPartsOf(pageOf(shell))!;
    expect(parts).not.toBeNull();
    for (const member of [view(0), view(1234), view(99999, '名前'.repeat(100))]) {
      const expected = fillPersonalHoles(shell, member);
      expect(filledBody(parts, member, false).toString('utf8')).toBe(expected);
      const gzip = filledBody(parts, member, true);
      // gunzip checks the CRC-32 and the length in the trailer.
      expect(zlib.gunzipSync(gzip).toString('utf8')).toBe(expected);
      // The shell was compressed once: the answer is far smaller than the page.
      expect(gzip.length).toBeLessThan(Buffer.byteLength(expected) / 5);
    }
  });

  it('refuses a shell that is not sound', () => {
    expect(shellPartsOf(pageOf(shell + SHELL_UNSUPPORTED_MARKER))).toBeNull();
    expect(shellPartsOf(pageOf('<html>no holes</html>'))).toBeNull();
  });
});
