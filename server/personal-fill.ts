// The members' shell's filler (docs/decisions/077): finds the holes a shell's markers mark and writes a
// member's texts into them (escaped as React writes text; the JSON so that nothing can end its element). The
// texts themselves come from modules/kernel/personal-holes.ts, which the pages' components call too.
import {
  drawMissingTexts,
  HOLE_MARKS,
  PERSONAL_COST_HOLES,
  PERSONAL_HOLES,
  PERSONAL_JSON_MARKER,
  personalTexts,
  type PersonalCostHole,
  type PersonalHole,
  type PersonalTexts,
  type PersonalView,
} from '#modules/kernel/personal-holes';

const { open: OPEN, close: CLOSE } = HOLE_MARKS;
const HOLE = new RegExp(`${OPEN}([a-zA-Z.]{1,40})(?::(\\d{1,12}))?${CLOSE}`, 'g');

/** Text as React writes it into HTML (text and attribute values alike). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#x27;',
  );
}

/** JSON that is safe inside a script element: no `</script>`, no `<!--`, no line separators. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * True when a rendered shell holds the JSON marker and nothing between the markers but known holes: a shell
 * that fails this is never stored or served (a page text that imitated a marker would otherwise be filled).
 */
export function isPersonalShell(html: string): boolean {
  if (html.split(PERSONAL_JSON_MARKER).length !== 2) return false;
  for (const match of html.matchAll(HOLE)) {
    const name = match[1]!;
    const known =
      match[2] === undefined
        ? name === 'personal.json' || (PERSONAL_HOLES as readonly string[]).includes(name)
        : (PERSONAL_COST_HOLES as readonly string[]).includes(name);
    if (!known) return false;
  }
  // An opening mark with no close (or the reverse) would leave a half.
  return html.split(OPEN).length === html.split(CLOSE).length;
}

/** A hole of a shell: its name and, for a draw button's hole, the cost. */
export interface ShellHole {
  name: string;
  cost?: number;
}

/**
 * A sound shell cut at its holes: the texts between them and the holes in order (segments has one more
 * entry than holes). The server keeps these per stored shell, so a member's answer is made without a scan.
 * @example splitPersonalShell('a\uE000wallet.total\uE001b') // { segments: ['a', 'b'], holes: [{ name: 'wallet.total' }] }
 */
export function splitPersonalShell(shell: string): { segments: string[]; holes: ShellHole[] } {
  const segments: string[] = [];
  const holes: ShellHole[] = [];
  let at = 0;
  for (const match of shell.matchAll(HOLE)) {
    segments.push(shell.slice(at, match.index));
    holes.push(match[2] === undefined ? { name: match[1]! } : { name: match[1]!, cost: Number(match[2]) });
    at = match.index + match[0].length;
  }
  segments.push(shell.slice(at));
  return { segments, holes };
}

/**
 * One hole's text for this member, as it goes into the page (escaped; the JSON made safe for its element).
 * @example personalHoleText({ name: 'wallet.total' }, view, personalTexts(view.wallet, view.unreadMails)) === '1,234'
 */
export function personalHoleText(hole: ShellHole, view: PersonalView, texts: PersonalTexts): string {
  if (hole.cost !== undefined)
    return escapeHtml(drawMissingTexts(hole.cost, view.wallet.total)[hole.name as PersonalCostHole] ?? '');
  return hole.name === 'personal.json' ? scriptSafeJson(view) : escapeHtml(texts[hole.name as PersonalHole] ?? '');
}

/**
 * The shell with this member's texts and data in its holes.
 * @example fillPersonalHoles(shell, view) // the member's page
 */
export function fillPersonalHoles(shell: string, view: PersonalView): string {
  const texts = personalTexts(view.wallet, view.unreadMails);
  const { segments, holes } = splitPersonalShell(shell);
  return segments
    .map((segment, i) => (i < holes.length ? segment + personalHoleText(holes[i]!, view, texts) : segment))
    .join('');
}
