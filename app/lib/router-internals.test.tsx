// The React Router internals app/lib/router-internals.ts relies on, asserted against the installed package:
// a React Router upgrade that moves any of them fails here, in seconds, before any browser test.
import fs from "node:fs";
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { type ReactNode, useContext } from "react";
import { renderToPipeableStream } from "react-dom/server";
import * as reactRouter from "react-router";
import { createRequestHandler, type EntryContext, type ServerBuild, ServerRouter } from "react-router";
import { describe, expect, test } from "vitest";
import {
  contextDefaults,
  DataRouterContext,
  DataRouterStateContext,
  FrameworkContext,
  frameworkFirst,
  type HandOff,
  scriptText,
  takeRouteData,
  writeHandOff,
} from "./router-internals";

const require = createRequire(import.meta.url);
const packageDir = require.resolve("react-router/package.json").replace(/package\.json$/, "");
const packageSource = (file: string) => fs.readFileSync(`${packageDir}dist/${file}`, "utf8");

// What this app's configuration (react-router.config.ts) gives React Router's server build.
const entryRoute = {
  id: "root",
  path: "",
  module: "/assets/root.js",
  imports: ["/assets/chunk.js"],
  css: [],
  hasAction: false,
  hasLoader: true,
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: false,
  clientActionModule: undefined,
  clientLoaderModule: undefined,
  clientMiddlewareModule: undefined,
  hydrateFallbackModule: undefined,
};
const awkwardText = '</script><!-- a line\nand a quote " \u2028';

/** Renders a page through React Router's own request handler, with `entry` as the server's entry. */
async function renderPage(takeData: boolean) {
  let seen: { context: EntryContext; routeData?: string; handOff?: string; html?: string } | undefined;
  function Probe({ routeData }: { routeData?: string }) {
    const framework = useContext(FrameworkContext);
    const router = useContext(DataRouterContext);
    const state = useContext(DataRouterStateContext);
    if (seen) seen.handOff = writeHandOff({ framework, router, state }, routeData);
    return null;
  }
  let routeData: string | undefined;
  const Root = (): ReactNode => (
    <html lang="en">
      <body>
        <Probe routeData={routeData} />
      </body>
    </html>
  );
  const build = {
    entry: {
      module: {
        async default(request: Request, status: number, headers: Headers, context: EntryContext) {
          seen = { context };
          routeData = takeData ? await takeRouteData(context) : undefined;
          seen.routeData = routeData;
          // A page whose scripts are rendered (as `<Scripts />` or `writeHandOff` say they are).
          if (!takeData && context.renderMeta) context.renderMeta.didRenderScripts = true;
          const html = await new Promise<string>((resolve, reject) => {
            let text = "";
            const body = new PassThrough().setEncoding("utf8");
            body.on("data", (chunk: string) => {
              text += chunk;
            });
            body.on("end", () => resolve(text));
            const { pipe } = renderToPipeableStream(<ServerRouter context={context} url={request.url} />, {
              onAllReady: () => pipe(body),
              onShellError: reject,
            });
          });
          seen.html = html;
          return new Response(html, { status, headers });
        },
      },
    },
    routes: {
      root: {
        id: "root",
        path: "",
        module: { default: Root, loader: () => ({ text: awkwardText, count: 1 }) },
      },
    },
    assets: {
      entry: { module: "/assets/entry.js", imports: ["/assets/framework.js"] },
      routes: { root: entryRoute },
      url: "/assets/manifest.js",
      version: "v1",
    },
    basename: "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
  const response = await createRequestHandler(build, "production")(new Request("http://localhost/"));
  expect(response.status).toBe(200);
  if (!seen) throw new Error("the entry was not called");
  return seen;
}

describe("React Router internals (router-internals.ts)", () => {
  test("the checklist was last run against this version", () => {
    // Bump after going through the upgrade checklist at the top of router-internals.ts.
    expect(require("react-router/package.json").version).toBe("7.18.4");
  });

  test("the UNSAFE_ exports it re-exports are there, in both builds", async () => {
    const names = [
      "UNSAFE_FrameworkContext",
      "UNSAFE_DataRouterContext",
      "UNSAFE_DataRouterStateContext",
      "UNSAFE_useScrollRestoration",
    ] as const;
    // The browser's build takes React Router's production build (vite.config.ts).
    const production = await import(`${packageDir}dist/production/index.mjs`);
    for (const exports of [reactRouter, production] as Record<string, unknown>[]) {
      for (const name of names) expect(exports[name], name).toBeDefined();
      expect(exports.UNSAFE_FrameworkContext).toHaveProperty("Provider");
      expect(exports.UNSAFE_DataRouterContext).toHaveProperty("Provider");
      expect(exports.UNSAFE_DataRouterStateContext).toHaveProperty("Provider");
      expect(typeof exports.UNSAFE_useScrollRestoration).toBe("function");
    }
  });

  test("the server's context has the fields read, and its context has only the fields defaulted", async () => {
    const { context } = await renderPage(true);
    expect(context.renderMeta).toEqual(expect.any(Object));
    expect(context.manifest.entry).toEqual({ module: expect.any(String), imports: expect.any(Array) });
    expect(context.manifest.version).toBe("v1");
    expect(context.manifest.routes.root).toMatchObject({ id: "root", module: "/assets/root.js" });
    // `contextDefaults` plus flags that are off: a new field or a changed default shows here.
    const handoff = JSON.parse(context.serverHandoffString ?? "{}");
    expect(handoff).toEqual({ ...contextDefaults, isSpaMode: false });
  });

  test("the route data is taken from the stream and written once, in the data block", async () => {
    const { context, routeData, handOff, html } = await renderPage(true);
    expect(context.serverHandoffStream).toBeUndefined();
    expect(routeData).toEqual(expect.any(String));
    // ServerRouter writes no script of its own once the stream is taken.
    expect(html).not.toContain("<script");
    const [first = "", ...rest] = (handOff ?? "").split("\n");
    const boot = JSON.parse(first) as HandOff;
    expect(boot.context).toBeUndefined();
    expect(boot.manifest).toEqual({ routes: { root: expect.any(Object) }, version: "v1" });
    expect(boot.manifest.routes.root).not.toHaveProperty("id");
    expect(boot.chunks).toEqual(["/assets/entry.js", "/assets/framework.js", "/assets/chunk.js"]);
    expect(rest.join("\n")).toBe(scriptText(routeData ?? ""));
    expect(handOff).not.toMatch(/<\/script|<!--/i);
  });

  test("the boot script runs the framework chunk first, the others in their order (ADR 55)", () => {
    const chunks = [
      "/assets/app-a1.js",
      "/assets/add-to-cart-b2.js",
      "/assets/framework-C_3.js",
      "/assets/x.js",
    ];
    expect(frameworkFirst(chunks)).toEqual([
      "/assets/framework-C_3.js",
      "/assets/app-a1.js",
      "/assets/add-to-cart-b2.js",
      "/assets/x.js",
    ]);
    expect(frameworkFirst(["/assets/a.js", "/assets/my-framework-1.js"])).toEqual([
      "/assets/a.js",
      "/assets/my-framework-1.js",
    ]);
  });

  test("the route data is turbo-stream text of JSON lines that React Router decodes, escaped or not", async () => {
    const { routeData = "" } = await renderPage(true);
    // `scriptText` escapes `<` as `\u003c`, which is only right where every `<` is inside a JSON string.
    for (const line of routeData.split("\n").filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    const decoded = await reactRouter.UNSAFE_decodeViaTurboStream(
      new Response(scriptText(routeData)).body as ReadableStream<Uint8Array>,
      globalThis,
    );
    await decoded.done;
    expect(decoded.value).toMatchObject({ loaderData: { root: { text: awkwardText, count: 1 } } });
  });

  test("without the hand-off, ServerRouter feeds the stream global the boot script sets", async () => {
    const { html } = await renderPage(false);
    expect(html).toContain("window.__reactRouterContext.streamController.enqueue(");
    expect(html).toContain("window.__reactRouterContext.streamController.close()");
  });

  test("HydratedRouter starts from the globals the boot script and the entry set", () => {
    for (const build of ["development", "production"]) {
      const source = packageSource(`${build}/dom-export.mjs`);
      for (const global of ["__reactRouterContext", "__reactRouterManifest", "__reactRouterRouteModules"])
        expect(source, `${build}: ${global}`).toContain(`window.${global}`);
      expect(source, build).toMatch(/ssrInfo\.context\.stream\b/);
    }
  });

  test("nothing else in app/ touches React Router's internals", () => {
    const files = fs
      .readdirSync("app", { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !file.includes("router-internals."))
      .map((file) => `app/${file}`);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) => /UNSAFE_|__reactRouter/.test(fs.readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
