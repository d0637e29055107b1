import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("uses the documented defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.origin).toBe("http://localhost:3000");
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ APP_ORIGIN: "ftp://example.com" }, "APP_ORIGIN"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  ])("refuses %j naming the variable", (source, name) => {
    expect(() => parseEnv(source)).toThrowError(ConfigError);
    expect(() => parseEnv(source)).toThrowError(new RegExp(`${name}:`));
  });

  it("takes APP_ORIGIN without its trailing slash", () => {
    expect(parseEnv({ APP_ORIGIN: "https://read.example/" }).origin).toBe("https://read.example");
  });
});
