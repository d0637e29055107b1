import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
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

/**
 * `express.static` for the files at the top of `root` (build/client: the favicon) and the folders beside
 * `assets`, asked only for their own paths: every other request (every page rendered per request) would
 * otherwise cost a `stat` of a file that is not there. What is there is read once, at start: the build does not
 * change under a running server.
 */
export function topLevelStatic(root: string, options: Parameters<typeof express.static>[1]): RequestHandler {
  const serve = express.static(root, options);
  const entries = fs.existsSync(root) ? fs.readdirSync(root, { withFileTypes: true }) : [];
  const files = new Set(entries.filter((entry) => entry.isFile()).map((entry) => `/${entry.name}`));
  const folders = entries
    .filter((entry) => entry.isDirectory() && entry.name !== "assets")
    .map((entry) => `/${entry.name}/`);
  return (req, res, next) =>
    files.has(req.path) || folders.some((folder) => req.path.startsWith(folder))
      ? serve(req, res, next)
      : next();
}
