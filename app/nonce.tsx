// The CSP nonce, given to React on the server; the browser never needs it after hydration.
import { createContext, useContext } from 'react';

export const NonceContext = createContext<string>('');
export const useNonce = () => useContext(NonceContext);
