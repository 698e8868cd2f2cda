// Popup sign-in (specification section 4): with JavaScript, a social sign-in opens a 500×600 window
// instead of leaving the page. A new popup cancels a pending one (its promise rejects with
// auth/cancelled-popup-request); a window the member closes ends as auth/popup-closed-by-user 8
// seconds after it is seen closed (the result may still be on its way); a blocked window
// (window.open answers null) is auth/popup-blocked, and the caller falls back to a full-page redirect.
// The popup's last page (/auth/popup) posts its result to the opener, same origin only, and closes.
// Window and timers are injected so unit tests prove each rule.

/** Popup window size (specification section 9). */
export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 600;
/** How often a pending popup is checked for being closed (the specification's popup poll: 2 to 10 s). */
export const POPUP_POLL_MS = 2_000;
/** After the window is seen closed, how long a result may still arrive before popup-closed-by-user. */
export const POPUP_CLOSED_GRACE_MS = 8_000;
/** The `type` of the message /auth/popup posts to its opener. */
export const POPUP_MESSAGE_TYPE = 'oripa:auth-popup';

export type PopupErrorCode = 'auth/popup-blocked' | 'auth/popup-closed-by-user' | 'auth/cancelled-popup-request';

/** What /auth/popup reports: signed in (go to `redirect`), or better-auth's error code. */
export type PopupResult = { ok: true; redirect: string } | { ok: false; error: string };

export class PopupError extends Error {
  constructor(readonly code: PopupErrorCode) {
    super(code);
    this.name = 'PopupError';
  }
}

/** The parts of a popup window used here. */
export interface PopupWindow {
  readonly closed: boolean;
  close(): void;
  focus?(): void;
}

/** The parts of the opener's window used here. */
export interface PopupHost {
  readonly location: { readonly origin: string };
  readonly screenX?: number;
  readonly screenY?: number;
  readonly outerWidth?: number;
  readonly outerHeight?: number;
  open(url: string, target: string, features: string): PopupWindow | null;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface PopupTimers {
  setInterval(handler: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  setTimeout(handler: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** window.open's features for a centred 500×600 popup. */
export function popupFeatures(host: Pick<PopupHost, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'>): string {
  const left = Math.max(0, Math.round((host.screenX ?? 0) + ((host.outerWidth ?? POPUP_WIDTH) - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round((host.screenY ?? 0) + ((host.outerHeight ?? POPUP_HEIGHT) - POPUP_HEIGHT) / 2));
  return `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top},resizable=yes,scrollbars=yes`;
}

/** A message from /auth/popup, or null for anything else (other origins, other windows, other shapes). */
export function readPopupMessage(event: MessageEvent, origin: string, popup: PopupWindow): PopupResult | null {
  if (event.origin !== origin || event.source !== (popup as unknown)) return null;
  const data = event.data as { type?: unknown; ok?: unknown; redirect?: unknown; error?: unknown } | null;
  if (!data || data.type !== POPUP_MESSAGE_TYPE) return null;
  if (data.ok === true && typeof data.redirect === 'string') return { ok: true, redirect: data.redirect };
  if (data.ok === false && typeof data.error === 'string') return { ok: false, error: data.error };
  return null;
}

/**
 * One opener's popup sign-ins. `open(target)` opens a blank named window, lets `submit(target)` send
 * the sign-in form into it, and answers what the popup reports.
 * @example const popups = createPopupSignIn(window, window); await popups.open((target) => { form.target = target; form.submit(); })
 */
export function createPopupSignIn(host: PopupHost, timers: PopupTimers) {
  let pending: { reject(error: PopupError): void; finish(): void; popup: PopupWindow } | null = null;
  let sequence = 0;

  function open(submit: (target: string) => void): Promise<PopupResult> {
    if (pending) {
      const previous = pending;
      pending = null;
      previous.finish();
      try {
        previous.popup.close();
      } catch {
        // a window of another origin may refuse; it is abandoned either way
      }
      previous.reject(new PopupError('auth/cancelled-popup-request'));
    }
    const target = `oripa-auth-${Date.now().toString(36)}-${++sequence}`;
    const popup = host.open('about:blank', target, popupFeatures(host));
    if (!popup) return Promise.reject(new PopupError('auth/popup-blocked'));
    popup.focus?.();
    return new Promise<PopupResult>((resolve, reject) => {
      let closedTimer: unknown = null;
      const onMessage = (event: MessageEvent) => {
        const result = readPopupMessage(event, host.location.origin, popup);
        if (!result) return;
        finish();
        if (pending?.popup === popup) pending = null;
        resolve(result);
      };
      const poll = timers.setInterval(() => {
        if (!popup.closed || closedTimer !== null) return;
        closedTimer = timers.setTimeout(() => {
          finish();
          if (pending?.popup === popup) pending = null;
          reject(new PopupError('auth/popup-closed-by-user'));
        }, POPUP_CLOSED_GRACE_MS);
      }, POPUP_POLL_MS);
      function finish() {
        timers.clearInterval(poll);
        if (closedTimer !== null) timers.clearTimeout(closedTimer);
        host.removeEventListener('message', onMessage);
      }
      host.addEventListener('message', onMessage);
      pending = { reject, finish, popup };
      submit(target);
    });
  }

  return {
    open,
    /** True while a popup sign-in waits for its result. */
    get pending() {
      return pending !== null;
    },
  };
}
