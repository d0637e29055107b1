import { describe, expect, it } from "vitest";
import { BadSignature } from "./provider.server";
import { readTestEvent, signTestEvent, TOLERANCE_SECONDS, verifyTestSignature } from "./test-provider.server";

const secret = "s".repeat(40);
const body = JSON.stringify({ id: "evt_1", type: "checkout.approved", data: { session: "tps_1" } });

describe("test provider signatures", () => {
  it("accepts its own signature over the exact body", () => {
    expect(() => verifyTestSignature(body, signTestEvent(body, secret), secret)).not.toThrow();
  });

  it.each([
    ["another secret", () => signTestEvent(body, "x".repeat(40))],
    ["a changed body", () => signTestEvent(`${body} `, secret)],
    ["no header", () => null],
    ["garbage", () => "v1=abc"],
    ["a non-hex signature", () => `t=${Math.floor(Date.now() / 1000)},v1=not-hex`],
    ["an old timestamp", () => signTestEvent(body, secret, Date.now() - (TOLERANCE_SECONDS + 5) * 1000)],
    ["a future timestamp", () => signTestEvent(body, secret, Date.now() + (TOLERANCE_SECONDS + 5) * 1000)],
  ])("refuses %s", (_, header) => {
    expect(() => verifyTestSignature(body, header(), secret)).toThrowError(BadSignature);
  });

  it("reads approval as paid and decline as failed", () => {
    const data = { session: "tps_1", amountCents: 99, currency: "USD" };
    expect(readTestEvent({ id: "e1", type: "checkout.approved", data }).effect).toMatchObject({
      kind: "paid",
      sessionId: "tps_1",
      amountCents: 99,
    });
    expect(readTestEvent({ id: "e2", type: "checkout.declined", data }).effect).toEqual({
      kind: "failed",
      sessionId: "tps_1",
    });
  });
});
