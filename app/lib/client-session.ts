// What the browser knows of the session between server round trips, for the client guards.
// After any form submission the session may have changed (sign-in, sign-out), so the state is
// unknown until the root loader's fresh data renders; meanwhile the server's guard decides alone.
let signedIn: boolean | null = null;
let lastSource: object | null = null;

/**
 * Called by the root component on every render with the root loader's data. Only fresh data
 * counts: re-renders during a submission still carry the old data and must not undo forgetSignedIn.
 */
export function rememberSignedIn(value: boolean, source: object) {
  if (source === lastSource) return;
  lastSource = source;
  signedIn = value;
}

/** Called when a submission starts: whatever we knew may be out of date. */
export function forgetSignedIn() {
  signedIn = null;
}

/** true or false when known, null when the server must decide. */
export const signedInOnClient = () => signedIn;
