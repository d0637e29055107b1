import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { coreNamespaces, isLanguage, serverNamespaces } from "./config.ts";

const virtualId = /^virtual:i18n\/(core|pages)-(\w+)$/;

/**
 * The two halves of a language's catalogue the browser loads, `virtual:i18n/core-<language>` and
 * `virtual:i18n/pages-<language>`: the core namespaces listed in config.ts, and every other namespace but
 * the server's. Each half is a module of its own holding a copy of its namespaces; had both imported the
 * language's JSON, the bundler would put the JSON in a chunk they share and the core would load it all.
 */
export function i18nCatalogues(): Plugin {
  return {
    name: "i18n-catalogues",
    resolveId: (id) => (virtualId.test(id) ? `\0${id}` : undefined),
    load(id) {
      const [, half, language] = virtualId.exec(id.slice(1)) ?? [];
      if (!id.startsWith("\0") || !half || !isLanguage(language)) return undefined;
      const file = fileURLToPath(new URL(`./locales/${language}.json`, import.meta.url));
      this.addWatchFile(file);
      const catalogue: Record<string, unknown> = JSON.parse(fs.readFileSync(file, "utf8"));
      const inHalf = (namespace: string) =>
        half === "core"
          ? coreNamespaces.includes(namespace)
          : !coreNamespaces.includes(namespace) && !serverNamespaces.includes(namespace);
      const namespaces = Object.entries(catalogue).filter(([namespace]) => inHalf(namespace));
      return `export default ${JSON.stringify(Object.fromEntries(namespaces))};\n`;
    },
  };
}
