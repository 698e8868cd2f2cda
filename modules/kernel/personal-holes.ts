// A member's own parts of a shared page (docs/decisions/077): the members' shell of a catalogue page is
// rendered once for every member with a marker in place of each personal text, and each member's answer is
// that shell with the markers replaced by this member's texts and the member's data in one JSON element that
// the browser reads before hydrating. The texts are made here, by the one function the server's filler and
// the pages' components both call, so the filled HTML and the browser's first render are the same.
//
// A second door (`#modules/kernel/personal-holes`): the pages (client and server) and the server use it.

/** What a member's shell answer carries for that member only. */
export interface PersonalView {
  member: { id: string; name: string; role: string };
  wallet: { paid: number; free: number; total: number };
  unreadMails: number;
}

/** Every personal text a shell may hold. */
export const PERSONAL_HOLES = [
  'wallet.total',
  'wallet.paid',
  'wallet.free',
  'bell.label',
  'bell.badge',
  'bell.badgeDisplay',
] as const;

export type PersonalHole = (typeof PERSONAL_HOLES)[number];
export type PersonalTexts = Record<PersonalHole, string>;

/**
 * Holes with a public argument: a draw button's cost (「あと1,000コイン不足」 under it). Their texts come from
 * the argument and the member's coins.
 */
export const PERSONAL_COST_HOLES = ['draw.missing', 'draw.missingUnit', 'draw.missingDisplay'] as const;
export type PersonalCostHole = (typeof PERSONAL_COST_HOLES)[number];

/** The id of the `<script type="application/json">` element that carries the PersonalView. */
export const PERSONAL_JSON_ID = 'oripa-personal';

const THOUSANDS = /\B(?=(\d{3})+$)/g;

/**
 * A whole number as ja-JP writes it (Intl's `maximumFractionDigits: 0` format). Integers are grouped
 * here: a browser's first Intl formatter loads its locale data, some 50 ms of a page's start-up on a
 * phone before anything else needs it (issue 32 item 4); anything else goes to Intl.
 * @example formatCoins(12345) === '12,345'
 */
export const formatCoins = (value: number): string =>
  Number.isSafeInteger(value) && !Object.is(value, -0)
    ? (value < 0 ? '-' : '') + String(Math.abs(value)).replace(THOUSANDS, ',')
    : value.toLocaleString('ja-JP', { maximumFractionDigits: 0 });

/**
 * The member's texts, as the header shows them.
 * @example personalTexts({ paid: 100, free: 0, total: 100 }, 3)['bell.badge'] === '3'
 */
export function personalTexts(wallet: PersonalView['wallet'], unreadMails: number): PersonalTexts {
  return {
    'wallet.total': formatCoins(wallet.total),
    'wallet.paid': formatCoins(wallet.paid),
    'wallet.free': formatCoins(wallet.free),
    'bell.label': unreadMails > 0 ? `メールボックス（未読${unreadMails}件）` : 'メールボックス',
    'bell.badge': unreadMails > 99 ? '99+' : String(unreadMails),
    // A class: the badge is in the shell either way, shown or not by this member's count.
    'bell.badgeDisplay': unreadMails > 0 ? 'flex' : 'hidden',
  };
}

/**
 * What a draw button of this cost says the member's coins lack (empty texts and a hidden line when nothing).
 * @example drawMissingTexts(5000, 1200)['draw.missing'] === 'あと3,800'
 */
export function drawMissingTexts(cost: number, balance: number): Record<PersonalCostHole, string> {
  const missing = Math.max(0, cost - balance);
  return {
    'draw.missing': missing > 0 ? `あと${formatCoins(missing)}` : '',
    'draw.missingUnit': missing > 0 ? 'コイン不足' : '',
    'draw.missingDisplay': missing > 0 ? 'block' : 'hidden',
  };
}

// Private-use characters: nothing a member, an operator or a pack's text can put into a page survives as
// these two around a hole's name (the filler only replaces known names, and the shell's own texts are
// checked for them before it is stored).
const OPEN = '\uE000';
const CLOSE = '\uE001';
/** The characters around a hole's name (the server's filler finds the holes by them). */
export const HOLE_MARKS = { open: OPEN, close: CLOSE } as const;
const JSON_MARK = `${OPEN}personal.json${CLOSE}`;

/** The markers the shell renders in place of each text. */
export const PERSONAL_MARKERS: PersonalTexts = /* @__PURE__ */ Object.fromEntries(
  PERSONAL_HOLES.map((hole) => [hole, `${OPEN}${hole}${CLOSE}`]),
) as PersonalTexts;

/** The markers of a draw button's holes in the shell. */
export function drawMissingMarkers(cost: number): Record<PersonalCostHole, string> {
  return Object.fromEntries(
    PERSONAL_COST_HOLES.map((hole) => [hole, `${OPEN}${hole}:${Math.trunc(cost)}${CLOSE}`]),
  ) as Record<PersonalCostHole, string>;
}

/** The JSON element's text in the shell. */
export const PERSONAL_JSON_MARKER = JSON_MARK;

/**
 * Rendered by a shell whose page is not the same shape for every member (a pack with a per-member limit
 * shows the member's own count left): such a shell is never filled, the page is rendered for each member.
 */
export const SHELL_UNSUPPORTED_MARKER = `${OPEN}shell.unsupported${CLOSE}`;
