import { describe, expect, it } from "vitest";
import { formatMoney } from "./format";

describe("formatMoney", () => {
  it("drops the cents of whole amounts unless asked for them (a cart's figures)", () => {
    expect(formatMoney(2500, "USD", "en")).toBe("$25");
    expect(formatMoney(2550, "USD", "en")).toBe("$25.50");
    expect(formatMoney(6500, "USD", "en", { minor: true })).toBe("$65.00");
    expect(formatMoney(6500, "JPY", "ja", { minor: true })).toBe("￥6,500");
  });
});
