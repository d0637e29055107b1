import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./headers";

describe("the Content-Security-Policy", () => {
  it("lets forms go to our own pages and to the configured OAuth providers' authorize pages only", () => {
    const policy = contentSecurityPolicy("'nonce-x'", " https://discord.com");
    expect(policy).toMatch(/form-action 'self' https:\/\/discord\.com$/);
    expect(contentSecurityPolicy("'nonce-x'", "")).toMatch(/form-action 'self'$/);
  });
});
