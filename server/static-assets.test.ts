import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressedAssets, topLevelStatic } from "./static-assets";

/** The hashed assets' pre-compressed copies, chosen by the browser's q-values (server/encoding.ts). */
const root = fs.mkdtempSync(path.join(os.tmpdir(), "cc-assets-"));
const script = `console.log(${JSON.stringify("the ledger ".repeat(50))});`;
let server: http.Server;
let base = "";

beforeAll(async () => {
  fs.writeFileSync(path.join(root, "entry-abc.js"), script);
  fs.writeFileSync(path.join(root, "entry-abc.js.br"), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(root, "entry-abc.js.gz"), zlib.gzipSync(script));
  const app = express();
  app.use("/assets", precompressedAssets(root));
  app.use("/assets", express.static(root));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

function get(acceptEncoding: string | undefined): Promise<{ encoding?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    http
      .get(`${base}/assets/entry-abc.js`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const text =
            encoding === "br"
              ? zlib.brotliDecompressSync(body)
              : encoding === "gzip"
                ? zlib.gunzipSync(body)
                : body;
          resolve({ encoding, text: text.toString("utf8") });
        });
      })
      .on("error", reject);
  });
}

describe("pre-compressed assets", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.9", "br"],
    ["gzip;q=1, br;q=0.2", "gzip"],
    ["*;q=0", undefined],
    ["identity;q=0", undefined],
    ["deflate", undefined],
    [undefined, undefined],
  ])("answer Accept-Encoding %j with %s", async (header, expected) => {
    const reply = await get(header);
    expect(reply.encoding).toBe(expected);
    expect(reply.text).toBe(script);
  });
});

describe("topLevelStatic", () => {
  it("serves the top files and folders of the build, and passes every other path on without a look", async () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), "cc-top-"));
    fs.writeFileSync(path.join(top, "favicon.svg"), "<svg/>");
    fs.mkdirSync(path.join(top, "fonts"));
    fs.writeFileSync(path.join(top, "fonts", "a.woff2"), "font");
    fs.mkdirSync(path.join(top, "assets"));
    const app = express();
    const passed: string[] = [];
    app.use(topLevelStatic(top, {}));
    app.use((req, res) => {
      passed.push(req.path);
      res.status(404).end();
    });
    const local = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => local.once("listening", resolve));
    const at = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${at}/favicon.svg`)).text()).toBe("<svg/>");
      expect(await (await fetch(`${at}/fonts/a.woff2`)).text()).toBe("font");
      // A file written after the start is not served: the build's files are read once.
      fs.writeFileSync(path.join(top, "later.txt"), "later");
      for (const page of ["/account", "/later.txt", "/chapter/1", "/fonts"]) {
        expect((await fetch(`${at}${page}`)).status, page).toBe(404);
      }
      expect(passed).toEqual(["/account", "/later.txt", "/chapter/1", "/fonts"]);
    } finally {
      await new Promise((resolve) => local.close(resolve));
      fs.rmSync(top, { recursive: true, force: true });
    }
  });
});
