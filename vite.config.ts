import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { i18nCatalogues } from "./app/i18n/vite-plugin.ts";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our HTTP app (server/app.ts), which imports the React Router build.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), i18nCatalogues()],
}));
