import { describe, expect, it } from "vitest";
import { siteRoutes } from "~/routes";
import { redactUrl } from "./redact";

describe("redactUrl", () => {
  it.each([
    ["/reset-password?token=abc123", "/reset-password?token=[redacted]"],
    ["/reset-password.data?token=abc123&_routes=x", "/reset-password.data?token=[redacted]&_routes=x"],
    [
      "/auth/discord/callback?code=c0de&state=st4te",
      "/auth/discord/callback?code=[redacted]&state=[redacted]",
    ],
    ["/coins?session_id=cs_test_1&ok=1", "/coins?session_id=[redacted]&ok=1"],
    ["/x?SID=1&Token=2&session=3", "/x?SID=[redacted]&Token=[redacted]&session=[redacted]"],
    ["/x?%74oken=abc", "/x?%74oken=[redacted]"],
    ["/x?to%ZZken=abc", "/x?to%ZZken=abc"],
    ["/pay/test/cs_secret_123", "/pay/test/[redacted]"],
    ["/pay/test/cs_secret_123.data?x=1", "/pay/test/[redacted]?x=1"],
    ["/pay/test", "/pay/test"],
    ["/pay/test/subscription/sub_secret_1", "/pay/test/subscription/[redacted]"],
    ["/PAY/Test/cs_secret_123", "/PAY/Test/[redacted]"],
    ["/feed/private/Zk3x_secret-token", "/feed/private/[redacted]"],
    ["/feed/private/Zk3x_secret-token?x=1", "/feed/private/[redacted]?x=1"],
    ["/unsubscribe/Zk3x_secret-token", "/unsubscribe/[redacted]"],
    ["/feed.atom", "/feed.atom"],
    ["/chapter/1?lang=en&page=2", "/chapter/1?lang=en&page=2"],
    ["/x?token", "/x?token"],
    ["/", "/"],
  ])("%s -> %s", (url, expected) => {
    expect(redactUrl(url, siteRoutes.secrets)).toBe(expected);
  });

  it("never leaves a secret parameter's value in any mix of parameters", () => {
    const names = ["token", "code", "state", "session", "session_id", "sid", "a", "page"];
    for (let i = 0; i < 200; i++) {
      const pairs = Array.from({ length: 1 + (i % 5) }, (_, j) => {
        const name = names[(i * 7 + j * 3) % names.length] as string;
        return [name, `v${i}x${j}secret`] as const;
      });
      const url = `/p?${pairs.map(([name, value]) => `${name}=${value}`).join("&")}`;
      const logged = redactUrl(url, siteRoutes.secrets) ?? "";
      for (const [name, value] of pairs) {
        const secret = !["a", "page"].includes(name);
        expect(logged.includes(`${name}=${value}`)).toBe(!secret);
      }
    }
  });
});
