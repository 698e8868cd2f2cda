// The root loader's data, readable from any component (header, footer, pages).
import { useRouteLoaderData } from 'react-router';
import type { InAppNotice } from '#modules/kernel/navigation';
import {
  PERSONAL_JSON_ID,
  PERSONAL_MARKERS,
  personalTexts,
  type PersonalTexts,
  type PersonalView,
} from '#modules/kernel/personal-holes';

export interface RootData {
  member: { id: string; name: string; role: string } | null;
  /** The header's link to /admin: staff whose access is ok only (false for members and visitors). */
  adminLink: boolean;
  /** The member's coins for the header (null for visitors); every action revalidates it. */
  wallet: { paid: number; free: number; total: number } | null;
  /** Unread mails for the header's bell (null for visitors); every action revalidates it. */
  unreadMails: number | null;
  site: { name: string; tagline: string; origin: string; description: string };
  buildId: string;
  buildPollSeconds: number;
  genres: { id: string; name: string; iconPath: string | null }[];
  notice: InAppNotice | null;
  /** Maintenance mode as this instance knows it (a few seconds old at most): the banner's text; null when open. */
  maintenance: { message: string; endsAtText: string | null } | null;
  /** The announced closure (decision 085): the banner's two lines, written on the server (no words in the bundle). */
  closure: { headline: string; detail: string } | null;
  /** The 古物営業法 line every page's footer shows (the kobutsu page's, else the settings' permit facts; decision 039). */
  footerNote: string;
  /**
   * 'shell': this is the members' shared shell of a catalogue page (decision 077). Its member, wallet and
   * bell are placeholders; the member's own values came in the page's personal JSON, which useRootData
   * puts in their place in the browser (on the server the header renders the shell's markers).
   */
  personal?: 'shell';
}

let personalText: string | null | undefined;
let personalView: PersonalView | null = null;
const filled = new WeakMap<RootData, RootData>();

/** The personal JSON the server put into a member's page, as sent (its element keeps this text). */
export function personalJsonText(): string | null {
  if (personalText === undefined) {
    personalText =
      typeof document === 'undefined' ? null : (document.getElementById(PERSONAL_JSON_ID)?.textContent ?? null);
    try {
      personalView = personalText ? (JSON.parse(personalText) as PersonalView) : null;
    } catch {
      personalView = null;
    }
  }
  return personalText;
}

/**
 * The root loader's data; on a members' shell in the browser, with the member's own values from the
 * page's personal JSON in the placeholders' place (one object per loader answer, so effects keyed on it
 * run once per answer). After any revalidation the root answers for the member and is used as it is.
 */
export function useRootData(): RootData | undefined {
  const root = useRouteLoaderData('root') as RootData | undefined;
  if (root?.personal !== 'shell' || typeof document === 'undefined') return root;
  personalJsonText();
  if (!personalView) return root;
  let mine = filled.get(root);
  if (!mine) {
    const { member, wallet, unreadMails } = personalView;
    mine = { ...root, personal: undefined, member, wallet, unreadMails };
    filled.set(root, mine);
  }
  return mine;
}

/**
 * The member's header texts (coins, the bell); null for a visitor. In the members' shell on the server,
 * the markers the server fills per member (decision 077); `unreadMails` is the bell's live count.
 * @example const texts = usePersonalTexts(); texts?.['wallet.total'] // '1,200'
 */
export function usePersonalTexts(unreadMails?: number | null): PersonalTexts | null {
  const root = useRootData();
  if (!root?.wallet) return null;
  // import.meta.env.SSR: the markers are the server's only; the browser's build leaves them out.
  if (import.meta.env.SSR && root.personal === 'shell') return PERSONAL_MARKERS;
  // (A shell without its JSON in the browser cannot happen; its placeholders, zeros, would show.)
  return personalTexts(root.wallet, unreadMails ?? root.unreadMails ?? 0);
}

/** True while the server renders a members' shell (decision 077): personal texts are markers. */
export function useIsPersonalShell(): boolean {
  const root = useRootData();
  return import.meta.env.SSR && root?.personal === 'shell';
}

/** The site settings as the error page may get them (a 404's payload may lack the description). */
export type SiteInfo = Omit<RootData['site'], 'description'> & { description?: string };

let lastKnownSite: SiteInfo | undefined;

/**
 * The site's name, tagline and origin as last rendered. A client-side error can leave the root's
 * error page without loader data; the site settings never change while a page is open.
 */
export function rememberSite(site: SiteInfo | undefined): SiteInfo | undefined {
  if (site) lastKnownSite = site;
  return site ?? lastKnownSite;
}
