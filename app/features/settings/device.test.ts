import { describe, expect, it } from "vitest";
import { describeDevice } from "./device";

describe("describeDevice", () => {
  it("names the browser and the system of common agents", () => {
    expect(
      describeDevice(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      ),
    ).toEqual({ browser: "Chrome", os: "Windows", mobile: false });
    expect(
      describeDevice(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toEqual({ browser: "Safari", os: "iOS", mobile: true });
    expect(describeDevice("Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0")).toEqual({
      browser: "Firefox",
      os: "Linux",
      mobile: false,
    });
  });

  it("gives nulls for a missing, empty or invented agent, and never throws", () => {
    expect(describeDevice(null)).toEqual({ browser: null, os: null, mobile: false });
    expect(describeDevice("")).toEqual({ browser: null, os: null, mobile: false });
    for (const agent of ["curl/8.0", "x".repeat(10_000), "\u0000<script>", "Mozilla/5.0 ()"]) {
      const device = describeDevice(agent);
      expect(device.browser === null || typeof device.browser === "string").toBe(true);
      expect(device.os === null || typeof device.os === "string").toBe(true);
    }
  });
});
