// What the browser knows of the session between server round trips, for the client guards.
let signedIn = false;

/** Called by the root component with the root loader's member on every render. */
export function rememberSignedIn(value: boolean) {
  signedIn = value;
}

export const isSignedInOnClient = () => signedIn;
