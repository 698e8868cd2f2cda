// Link with intent prefetch, except on save-data and 2g/slow-2g connections (specification section 9).
import { useSyncExternalStore } from 'react';
import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router';

type NetworkInformation = EventTarget & { saveData?: boolean; effectiveType?: string };

/** @example shouldSkipPrefetch({ saveData: false, effectiveType: '2g' }) === true */
export function shouldSkipPrefetch(
  connection: Pick<NetworkInformation, 'saveData' | 'effectiveType'> | undefined,
): boolean {
  if (!connection) return false;
  return connection.saveData === true || connection.effectiveType === '2g' || connection.effectiveType === 'slow-2g';
}

// One listener for the whole page, however many links it has.
const listeners = new Set<() => void>();
let listening = false;
const connectionOf = () => (navigator as Navigator & { connection?: NetworkInformation }).connection;
const currentPolicy = (): 'intent' | 'none' => (shouldSkipPrefetch(connectionOf()) ? 'none' : 'intent');

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  if (!listening) {
    listening = true;
    connectionOf()?.addEventListener?.('change', () => listeners.forEach((notify) => notify()));
  }
  return () => listeners.delete(onChange);
}

/** 'intent' on the server and on fast connections, 'none' on slow ones or with save-data. */
export function usePrefetchPolicy(): 'intent' | 'none' {
  return useSyncExternalStore(subscribe, currentPolicy, () => 'intent');
}

export function AppLink(props: LinkProps) {
  const prefetch = usePrefetchPolicy();
  return <Link prefetch={prefetch} {...props} />;
}

export function AppNavLink(props: NavLinkProps) {
  const prefetch = usePrefetchPolicy();
  return <NavLink prefetch={prefetch} {...props} />;
}
