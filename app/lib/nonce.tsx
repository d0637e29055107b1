import { createContext, useContext } from "react";

/** The per-request CSP nonce on the server; empty in the browser, which hides nonces from scripts. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
