// The benchmark's baseline: a bare Node HTTP server sending one page's bytes, pre-compressed (brotli q11,
// gzip 9), as a static file server would. Usage: node bench/baseline-server.mjs FILE PORT
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";

const [file, port] = process.argv.slice(2);
const body = fs.readFileSync(file);
const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
const gz = zlib.gzipSync(body, { level: 9 });
http
  .createServer((req, res) => {
    const accepts = req.headers["accept-encoding"] ?? "";
    const [bytes, encoding] = /\bbr\b/.test(accepts)
      ? [br, "br"]
      : /\bgzip\b/.test(accepts)
        ? [gz, "gzip"]
        : [body, undefined];
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": bytes.length,
      ...(encoding ? { "Content-Encoding": encoding } : {}),
    });
    res.end(bytes);
  })
  .listen(Number(port), "127.0.0.1");
