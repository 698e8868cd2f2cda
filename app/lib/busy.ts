// Throwing the busy page (503) from the root guard while the database is away (decision 054): the error
// carries what the page needs, since no loader ran.
import { data, isRouteErrorResponse } from 'react-router';
import { BUSY_RETRY_AFTER_SECONDS } from '#db/unavailable';
import type { SiteInfo } from './root-data';

export interface BusyPayload {
  busy: true;
  site: SiteInfo;
}

/** @example throw busy(site) */
export function busy(site: SiteInfo) {
  return data<BusyPayload>(
    { busy: true, site },
    { status: 503, headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' } },
  );
}

/** True for the busy page's error (the root's error boundary shows BusyView for it). */
export function isBusyError(error: unknown): error is { status: 503; data: BusyPayload } {
  return isRouteErrorResponse(error) && error.status === 503 && (error.data as BusyPayload | undefined)?.busy === true;
}
