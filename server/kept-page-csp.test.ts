import crypto from "node:crypto";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { dropRequestPolicy, keptPagePolicy, withoutRequestNonce } from "./kept-page-csp";

const sha = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

describe("a kept page's CSP", () => {
  const page = Buffer.from(
    [
      "<html><head><script>a()</script><script>a()</script>",
      '<script src="/x.js"></script><script type="application/json">{"data":1}</script>',
      "</head><body><script async>b()</script></body></html>",
    ].join(""),
  );

  it("is made from the hashes of its inline scripts, once each, without files or data blocks", () => {
    const policy = keptPagePolicy(page, true)["Content-Security-Policy"] ?? "";
    const scriptSrc = /(?:^|; )script-src ([^;]*)/.exec(policy)?.[1];
    expect(scriptSrc).toBe(`'self' ${sha("a()")} ${sha("b()")}`);
    expect(policy).not.toContain("nonce");
  });

  it("is not made outside production, where Vite's own inline scripts run", () => {
    expect(keptPagePolicy(page, false)).toEqual({});
  });

  it("replaces the request's nonce on the page's tags by nothing", () => {
    const html = Buffer.from('<script nonce="abc">x()</script><link nonce="abc" rel="modulepreload">');
    expect(withoutRequestNonce(html, "abc").toString()).toBe(
      '<script>x()</script><link rel="modulepreload">',
    );
    expect(withoutRequestNonce(html, "other")).toBe(html);
    expect(withoutRequestNonce(html, undefined)).toBe(html);
  });

  it("removes the CSP set for the request's nonce, so the kept page's own goes out", () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    res.setHeader("Content-Security-Policy", "script-src 'nonce-abc'");
    dropRequestPolicy(res);
    expect(res.hasHeader("Content-Security-Policy")).toBe(false);
  });
});
