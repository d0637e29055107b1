import fs from "node:fs";
import path from "node:path";

const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A pattern for the module ids of a chunk group (vite.config.ts): the modules are named as paths from `root`
 * without their extension (`app/ui/button`), and each must be a file there (`.ts` or `.tsx`), so a module
 * renamed or moved fails the build instead of leaving its group unseen.
 */
export function modulesPattern(root: string, modules: string[]): RegExp {
  const missing = modules.filter(
    (module) => !["ts", "tsx"].some((extension) => fs.existsSync(path.join(root, `${module}.${extension}`))),
  );
  if (missing.length) throw new Error(`No module ${missing.join(", ")} for the chunk group (vite.config.ts)`);
  return new RegExp(`/(${modules.map(escapePattern).join("|")})\\.tsx?($|\\?)`);
}
