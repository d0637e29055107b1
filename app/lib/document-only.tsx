import { createContext, useContext } from "react";

/** See RequestContext.documentOnly: server-render-only values; empty in the browser. */
const DocumentOnlyContext = createContext<Record<string, string>>({});

export const DocumentOnlyProvider = DocumentOnlyContext.Provider;

export function useDocumentOnly(key: string): string | undefined {
  return useContext(DocumentOnlyContext)[key];
}
