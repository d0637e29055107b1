import path from "node:path";
import { pipeline } from "node:stream/promises";
import express, { type RequestHandler } from "express";
import { IMMUTABLE_MEDIA } from "~/features/uploads/keys";
import { logger, safeError } from "~/lib/logger.server";
import { LocalMediaStore, type MediaStore, safeKey } from "~/lib/storage.server";

/** An upload's variant never changes under its key (content-addressed): a year, never revalidated. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Imported art keeps its name when the author replaces it: a day, as before. */
const DAILY = "public, max-age=86400";

export const mediaCacheControl = (key: string) => (IMMUTABLE_MEDIA.test(key) ? IMMUTABLE : DAILY);

const httpError = (status: number, code: string) => Object.assign(new Error(code), { status, code });

/**
 * `/media/<key>` from whichever store holds the media (ADR 33). A directory is served by express.static
 * (ranges, conditional requests, its 400s and 404s); a bucket is streamed through the app, so the site's
 * origin, headers and cache rules stay the same whichever store is configured and the bucket stays private.
 */
export function serveMedia(store: MediaStore): RequestHandler {
  if (store instanceof LocalMediaStore) {
    return express.static(store.root, {
      fallthrough: false,
      setHeaders: (res, file) => {
        const key = path.relative(store.root, file).split(path.sep).join("/");
        res.setHeader("Cache-Control", mediaCacheControl(key));
      },
    });
  }
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return next(httpError(405, "method-not-allowed"));
    }
    let key: string;
    try {
      key = safeKey(decodeURIComponent(req.path));
    } catch {
      return next(httpError(400, "bad-media-path"));
    }
    try {
      const found = await store.open(key);
      if (!found) return next(httpError(404, "media-not-found"));
      res.setHeader("Cache-Control", mediaCacheControl(key));
      res.setHeader("Content-Type", found.contentType);
      res.setHeader("X-Content-Type-Options", "nosniff");
      if (found.etag) res.setHeader("ETag", found.etag);
      // Express's freshness rule, as express.static answers for the directory (If-None-Match against the ETag).
      if (found.etag && req.fresh) {
        found.body.destroy();
        res.status(304).end();
        return;
      }
      res.setHeader("Content-Length", String(found.bytes));
      if (req.method === "HEAD") {
        found.body.destroy();
        res.end();
        return;
      }
      await pipeline(found.body, res);
    } catch (error) {
      // Once the image has begun, an end mid-way (most often the browser going away) cuts the response.
      if (!res.headersSent) return next(error);
      logger.info({ requestId: res.locals.requestId, ...safeError(error) }, "media response cut");
      res.destroy();
    }
  };
}
