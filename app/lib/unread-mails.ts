// The header's unread-mail count, live without a reload: the root loader's figure (fresh after every
// action), a mail page's figure just after it marked a mail read, and a light refresh from the API while
// the tab is visible (every minute, and when the member comes back to it).
import { useEffect, useSyncExternalStore } from 'react';

const REFRESH_MS = 60_000;
export const UNREAD_COUNT_PATH = '/api/v1/me/mails/unread-count';

let current: number | null = null;
const listeners = new Set<() => void>();

/** Sets the count everyone shows (a page that just changed it, or a refresh). */
export function setUnreadMails(count: number | null) {
  if (count === current) return;
  current = count;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

async function refreshUnreadMails() {
  try {
    const answer = await fetch(UNREAD_COUNT_PATH, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!answer.ok) return;
    const body = (await answer.json()) as { unread?: unknown };
    if (typeof body.unread === 'number') setUnreadMails(body.unread);
  } catch {
    // Offline or a deploy in progress: the next refresh or navigation brings it.
  }
}

/**
 * The count to show: `fromRoot` whenever the root loader answers anew, then whatever is fresher.
 * @example const unread = useUnreadMails(root?.unreadMails ?? null, root)
 */
export function useUnreadMails(fromRoot: number | null, rootData: unknown): number | null {
  // A new root answer (after an action or a reload) is the freshest figure.
  useEffect(() => setUnreadMails(fromRoot), [fromRoot, rootData]);
  const signedIn = fromRoot !== null;
  useEffect(() => {
    if (!signedIn) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      clearInterval(timer);
      timer = setInterval(() => void refreshUnreadMails(), REFRESH_MS);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        void refreshUnreadMails();
        start();
      } else clearInterval(timer);
    };
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [signedIn]);
  const live = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return live ?? fromRoot;
}
