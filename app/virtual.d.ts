declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";

  const build: ServerBuild;
  export = build;
}

/** Half of a language's catalogue (app/i18n/vite-plugin.ts). */
declare module "virtual:i18n/*" {
  const catalogue: import("~/i18n/translate").Catalogue;
  export default catalogue;
}

/** A module's one function as minified text, for an inline script (app/lib/inline-script.ts). */
declare module "*?inline-script" {
  const text: string;
  export default text;
}
