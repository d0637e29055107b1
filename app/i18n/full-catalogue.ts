import { loadAll } from "./catalogues.client";

// Imported first by every route module outside the core (config.ts). React Router imports a route's module
// before it renders the route, on a page load and on a client navigation alike, so this top-level await
// puts the page's texts in the browser's catalogue in time. The server has every catalogue (server.ts).
if (typeof document !== "undefined") await loadAll();
