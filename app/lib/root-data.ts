// The root loader's data, readable from any component (header, footer, pages).
import { useRouteLoaderData } from 'react-router';
import type { InAppNotice } from '#modules/kernel/navigation';

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
  /** The 古物営業法 line every page's footer shows (the kobutsu page's, else the settings' permit facts; decision 039). */
  footerNote: string;
}

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
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
