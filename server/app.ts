import crypto from "node:crypto";
import http, { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import type { Duplex } from "node:stream";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { type DatabaseHandle, openDatabase, setDatabase } from "#db/client.server";
import { acquireDataDirLock } from "#db/lock.server";
import { RETRY_AFTER_SECONDS } from "#db/unavailable";
import { startAnnouncementMails, stopAnnouncementMails } from "~/features/announcements/worker.server";
import { nextReleaseAfter } from "~/features/chapters/catalog.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent, isDatabaseEmpty } from "~/features/content/import.server";
import { startDiscordRoles, stopDiscordRoles } from "~/features/discord/worker.server";
import { startOrderExpiry, stopOrderExpiry } from "~/features/orders/expiry.server";
import { queryCanonicaliser } from "~/features/page-cache/query.server";
import { isOneReader, pageRevisionOf, sharedViewerOf } from "~/features/page-cache/viewer.server";
import { startQaMails, stopQaMails } from "~/features/qa/worker.server";
import { settleProgressWrites } from "~/features/reader/progress-writes.server";
import { startReleaseMails, stopReleaseMails } from "~/features/release-mails/worker.server";
import { afterResponseOf, settleAfterResponse } from "~/lib/after-response.server";
import { releaseTimeMs } from "~/lib/clock.server";
import type { RequestContext } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { accessLog, logger } from "~/lib/logger.server";
import { mediaStoreFor, setMediaStore } from "~/lib/media-store.server";
import { preferencesFromCookies } from "~/lib/preferences.server";
import { redactUrl } from "~/lib/redact";
import { siteRoutes } from "~/routes";
import { startAdminSocket } from "./admin-socket";
import { admission } from "./admission";
import { bodyLimit } from "./body-limit";
import { answeringDatabaseOutages } from "./database-outage";
import { followFreshness, stopFollowingFreshness } from "./freshness";
import { securityHeaders } from "./headers";
import { lastWordOnError } from "./last-word";
import { serveMedia } from "./media";
import { isAllowedMethod, refuseConnect, sendMethodNotAllowed } from "./methods";
import { originCheck } from "./origin-check";
import { PageCache } from "./page-cache";
import { reactRouterHandler } from "./react-router";
import { precompressedAssets, topLevelStatic } from "./static-assets";
import { sendUnstorableText, unstorableInCookies, unstorableInUrl } from "./text-input";
import { forgetWriterOnAnswer } from "./writer";

export type StartOptions = { vite?: ViteDevServer };

/** Requests one signed-in reader may have waiting for a render: a browser opens six connections to a site. */
const READER_QUEUE = 8;

/** How long a SIGTERM waits for requests in flight before closing the database anyway. */
const DRAIN_MS = 4000;

/** The client's address; behind a proxy on this machine (trusted, as Express is told), the one it names. */
function clientIp(req: IncomingMessage): string | undefined {
  const isLoopback = (address: string | undefined) =>
    address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
  let ip = req.socket.remoteAddress;
  const forwarded = req.headers["x-forwarded-for"];
  if (typeof forwarded !== "string") return ip;
  // From the right, as Express's "trust proxy" reads it: each loopback hop vouches for the one before it; the
  // first address not on this machine is the client's (entries further left are the client's own claims).
  const hops = forwarded.split(",").map((hop) => hop.trim());
  while (isLoopback(ip) && hops.length > 0) ip = hops.pop();
  return ip;
}

const requestIds = new WeakMap<IncomingMessage, string>();

/** Every request gets an id (echoed in X-Request-Id) and, at level info, one JSON log line when it ends. */
function beginRequest(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers["x-request-id"];
  const requestId =
    typeof incoming === "string" && /^[\w-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  requestIds.set(req, requestId);
  if (!logger.isLevelEnabled("info")) return requestId;
  const began = performance.now();
  // As the client sent it: the page cache may put a canonical form in req.url.
  const url = req.url ?? "/";
  res.once("finish", () => {
    accessLog({
      requestId,
      method: req.method,
      url: redactUrl(url, siteRoutes.secrets),
      status: res.statusCode,
      ms: performance.now() - began,
      ip: clientIp(req),
    });
  });
  return requestId;
}

async function openConfiguredDatabase(): Promise<{ handle: DatabaseHandle; release: () => void }> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const handle = await openDatabase({
      kind: "postgres",
      url: env.DATABASE_URL,
      onError: (error) => logger.error({ err: error }, "database connection lost"),
    });
    return { handle, release: () => {} };
  }
  const release = acquireDataDirLock(env.dataDir);
  try {
    const handle = await openDatabase({ kind: "pglite", dataDir: path.join(env.dataDir, "pgdata") });
    return { handle, release };
  } catch (error) {
    release();
    throw error;
  }
}

export async function start({ vite }: StartOptions = {}): Promise<Server> {
  const env = getEnv();
  const startedAt = Date.now();
  const { handle, release } = await openConfiguredDatabase();
  await handle.migrate();
  setDatabase(handle);
  const media = await mediaStoreFor(env);
  setMediaStore(media);
  // `npm run db -- backup` of a running PGlite site goes through this server (ADR 14).
  const closeAdminSocket =
    handle.kind === "pglite" ? await startAdminSocket(env.dataDir, handle) : async () => {};
  if (await isDatabaseEmpty(handle.db)) {
    const report = await importContent(handle.db, await readContentDir(env.CONTENT_DIR), { media });
    logger.info({ report }, "loaded the demo content into the empty database");
  }

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");

  app.use((req, res, next) => {
    res.locals.requestId = requestIds.get(req);
    res.setHeader("X-Request-Id", res.locals.requestId as string);
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    next();
  });
  app.use(
    securityHeaders({ production: env.NODE_ENV === "production", https: env.origin.startsWith("https:") }),
  );
  app.use(compression());
  app.use(originCheck());
  app.use(bodyLimit());

  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    try {
      await handle.ping();
      res.json({ status: "ok", database: handle.kind });
    } catch {
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      res.status(503).json({ status: "unavailable", database: handle.kind, databaseState: "down" });
    }
  });

  app.use("/media", serveMedia(media));

  // Under Vite the build changes on edits, so React Router is given a function and asks for it (and derives
  // its route tables again) on every request; in production it is given the build once.
  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (vite) {
    app.use(vite.middlewares);
    build = async () =>
      answeringDatabaseOutages(
        (await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild,
      );
  } else {
    // Hashed assets never change; everything else in build/client may.
    app.use("/assets", precompressedAssets("build/client/assets"));
    app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
    // The offline worker (ADR 96): the browser checks it on each visit, so a new version is taken at once
    // (express.static keeps a Cache-Control already set).
    app.get("/sw.js", (_req, res, next) => {
      res.setHeader("Cache-Control", "no-cache");
      res.setHeader("Service-Worker-Allowed", "/");
      next();
    });
    app.use(topLevelStatic("build/client", { maxAge: "1h" }));
    const serverBuild = await import("virtual:react-router/server-build");
    build = answeringDatabaseOutages(serverBuild as unknown as ServerBuild);
  }

  // Pages shared by many readers are kept whole and answered before Express (see server/page-cache.ts);
  // not under Vite, whose modules change under it.
  const production = env.NODE_ENV === "production";
  // The content revision and the reader events, one follower for both (server/freshness.ts): kept pages,
  // the chapter catalogue and signed-in readers' kept sessions are forgotten on every change (ADR 49, 54).
  await followFreshness();
  // Orders whose reservation ended give their units back, every minute (ADR 25).
  startOrderExpiry();
  // Chapter e-mails: openings queued once, a throttled batch sent every 15 s (ADR 45).
  await startReleaseMails();
  // Discord roles follow the tiers: a tier change within seconds, a lapse nobody saw every minute (ADR 84).
  await startDiscordRoles();
  // A published month's Q&A e-mails, queued once by the publish, sent every minute (ADR 82).
  startQaMails();
  // The author's announcements, queued once by the publish, sent every 30 s (ADR 95).
  startAnnouncementMails();
  const pages = vite
    ? undefined
    : new PageCache({
        production,
        https: env.origin.startsWith("https:"),
        maxBytes: env.PAGE_CACHE_MB * 1024 * 1024,
        maxAgeMs: 60_000,
        // Stale-if-error: a day covers an outage someone is fixing, not a database left for dead.
        staleMs: 24 * 60 * 60_000,
        // Who shares a page, what retires it and the query it reads: its route's rules (app/routes.ts).
        revision: pageRevisionOf(siteRoutes.match),
        nextReleaseAfter,
        now: releaseTimeMs,
        preferences: preferencesFromCookies,
        viewer: sharedViewerOf(siteRoutes.match),
        oneReader: isOneReader,
        canonicalQuery: queryCanonicaliser(
          (typeof build === "function" ? await build() : build).routes,
          siteRoutes.match,
        ),
        // One line a render at debug level (LOG_LEVEL=debug): the release-minute test counts them per page.
        onRender: (key) =>
          logger.debug({ event: "page.render", page: key.replaceAll("\n", " | ") }, "page rendered to keep"),
      });

  app.all(
    "/{*splat}",
    reactRouterHandler({
      build,
      origin: env.origin,
      pages,
      // Renders and writes wait their turn, fairly, so they never starve kept pages (ADR 68).
      admit: admission({
        inFlight: env.RENDERS_IN_FLIGHT,
        queued: env.RENDERS_QUEUED,
        perReader: READER_QUEUE,
      }),
      getLoadContext: (req, res): RequestContext => ({
        cspNonce: res.locals.cspNonce as string,
        requestId: res.locals.requestId as string,
        ip: req.ip ?? "unknown",
        documentRequest: !req.path.endsWith(".data"),
        documentOnly: {},
        afterResponse: afterResponseOf(res),
      }),
    }),
  );

  app.use(lastWordOnError);

  const server = http.createServer((req, res) => {
    const requestId = beginRequest(req, res);
    // Refusals every request passes, before the page cache, static files or a route: a method the site does
    // not answer, and text the database cannot store in the URL or a cookie (the body's is checked as it is
    // read, server/react-router.ts).
    if (!isAllowedMethod(req.method)) return sendMethodNotAllowed(req, res);
    if (unstorableInUrl(req.url ?? "/") || unstorableInCookies(req.headers.cookie)) {
      return sendUnstorableText(req, res);
    }
    if (req.method !== "GET" && req.method !== "HEAD") forgetWriterOnAnswer(req, res);
    if (pages) pages.handle(req, res, requestId, () => app(req, res));
    else app(req, res);
  });
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    accessLog({
      method: req.method,
      url: redactUrl(req.url ?? "", siteRoutes.secrets),
      status: 405,
      ip: clientIp(req),
    });
    refuseConnect(socket);
  });
  server.listen(env.PORT, env.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  logger.info(
    { url: env.origin, database: handle.kind, startupMs: Date.now() - startedAt },
    `serving on ${env.origin}`,
  );
  if (env.TEST_CLOCK) logger.warn("TEST_CLOCK is on: an author can move the release time at /admin/clock");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: no new connections, draining requests in flight");
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DRAIN_MS).unref()),
    ]);
    if (!drained) server.closeAllConnections();
    stopFollowingFreshness();
    stopOrderExpiry();
    await stopReleaseMails();
    await stopDiscordRoles();
    await stopQaMails();
    await stopAnnouncementMails();
    await settleAfterResponse(DRAIN_MS);
    // Progress writes still queued or being written (their readers may have gone): written before closing.
    await settleProgressWrites();
    await closeAdminSocket();
    await handle
      .close()
      .catch((error: unknown) => logger.error({ err: error }, "closing the database failed"));
    release();
    logger.info({ drained }, "stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  return server;
}
