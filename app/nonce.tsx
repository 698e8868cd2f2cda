// The CSP nonce, given to React on the server; the browser never needs it after hydration.
import { createContext, useContext } from 'react';

export const NonceContext = createContext<string>('');
export const useNonce = () => useContext(NonceContext);

/**
 * The inline reload guard's text (lib/chunk-guard-boot.ts), given on the server only: the browser already
 * ran it from the HTML before the app started, so its ~1 kB never rides in every page's JavaScript.
 */
export const BootScriptContext = createContext<string>('');
export const useBootScript = () => useContext(BootScriptContext);
