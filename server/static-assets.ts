import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";
import { preferredEncoding } from "./encoding";

const types: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

/**
 * Serves the build's hashed assets from their pre-compressed copies (scripts/precompress.mjs): the encoding the
 * browser prefers by its q-values (server/encoding.ts). Hashed names never change, so they are cached for a year. Anything
 * without a copy (fonts, images) falls through to the plain static handler.
 */
export function precompressedAssets(root: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = path.posix.basename(req.path);
    const type = types[path.extname(name)];
    if (!type || name !== req.path.slice(1)) return next();
    const encoding = preferredEncoding(req.get("accept-encoding"));
    if (encoding === "identity") return next();
    const file = path.join(root, `${name}.${encoding === "br" ? "br" : "gz"}`);
    fs.stat(file, (error, stat) => {
      if (error || !stat.isFile()) return next();
      res.setHeader("Content-Type", type);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", stat.size);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      if (req.method === "HEAD") return res.end();
      fs.createReadStream(file).on("error", next).pipe(res);
    });
  };
}
