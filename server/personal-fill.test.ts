// The members' shell's holes (decision 077): the filler writes a member's texts escaped as React would,
// the JSON so that no text can close its element, and refuses a shell with a hole it does not know.
import { describe, it, expect } from 'vitest';
import {
  drawMissingMarkers,
  drawMissingTexts,
  PERSONAL_JSON_MARKER,
  PERSONAL_MARKERS,
  personalTexts,
  SHELL_UNSUPPORTED_MARKER,
  type PersonalView,
} from '#modules/kernel/personal-holes';
import { fillPersonalHoles, isPersonalShell } from './personal-fill';

const view: PersonalView = {
  member: { id: 'm1', name: '</script><script>alert(1)</script>&"\'', role: 'user' },
  wallet: { paid: 1200, free: 34, total: 1234 },
  unreadMails: 120,
};

const shell = [
  `<script type="application/json" id="oripa-personal">${PERSONAL_JSON_MARKER}</script>`,
  `<b>${PERSONAL_MARKERS['wallet.total']}</b>`,
  `<span class="${PERSONAL_MARKERS['bell.badgeDisplay']} x">${PERSONAL_MARKERS['bell.badge']}</span>`,
  `<span>${PERSONAL_MARKERS['bell.label']}</span>`,
  `<p class="${drawMissingMarkers(5000)['draw.missingDisplay']}">${drawMissingMarkers(5000)['draw.missing']}${drawMissingMarkers(5000)['draw.missingUnit']}</p>`,
].join('');

describe('personal holes', () => {
  it('fills each hole with the member’s text and the JSON with the member’s view', () => {
    expect(isPersonalShell(shell)).toBe(true);
    const page = fillPersonalHoles(shell, view);
    expect(page).toContain('<b>1,234</b>');
    expect(page).toContain('<span class="flex x">99+</span>');
    expect(page).toContain('<span>メールボックス（未読120件）</span>');
    expect(page).toContain('<p class="block">あと3,766コイン不足</p>');
    expect(page).not.toMatch(/[\uE000\uE001]/);
    const json = /id="oripa-personal">([\s\S]*?)<\/script>/.exec(page)![1]!;
    // No text can end the element or open a comment inside it, and it reads back as the view.
    expect(json).not.toMatch(/<|>/);
    expect(JSON.parse(json)).toEqual(view);
  });

  it('writes texts as React writes them: what needs escaping is escaped', () => {
    const filled = fillPersonalHoles(`${PERSONAL_JSON_MARKER}<i>${PERSONAL_MARKERS['bell.label']}</i>`, {
      ...view,
      unreadMails: 0,
    });
    expect(filled).toContain('<i>メールボックス</i>');
    expect(personalTexts({ paid: 0, free: 0, total: 0 }, 0)['bell.badgeDisplay']).toBe('hidden');
    expect(drawMissingTexts(500, 500)).toEqual({
      'draw.missing': '',
      'draw.missingUnit': '',
      'draw.missingDisplay': 'hidden',
    });
  });

  it('refuses a shell with an unknown hole, a half marker, no JSON, two JSONs or the unsupported mark', () => {
    expect(isPersonalShell(`${shell}\uE000member.email\uE001`)).toBe(false);
    expect(isPersonalShell(`${shell}\uE000wallet.total`)).toBe(false);
    expect(isPersonalShell(shell.replace(PERSONAL_JSON_MARKER, ''))).toBe(false);
    expect(isPersonalShell(shell + PERSONAL_JSON_MARKER)).toBe(false);
    expect(isPersonalShell(shell + SHELL_UNSUPPORTED_MARKER)).toBe(false);
    // A cost hole needs its cost; a plain hole takes none.
    expect(isPersonalShell(`${shell}\uE000draw.missing\uE001`)).toBe(false);
    expect(isPersonalShell(`${shell}\uE000wallet.total:5\uE001`)).toBe(false);
  });
});
