import { describe, expect, it } from "vitest";
import { loginSchema, parseForm, registerSchema } from "./schemas";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

describe("registerSchema", () => {
  const valid = {
    username: "ilse",
    email: "ilse@example.com",
    password: "secret1",
    confirmPassword: "secret1",
    acceptTerms: "on",
  };

  it("accepts a valid form", () => {
    expect(parseForm(registerSchema, form(valid))).toMatchObject({
      ok: true,
      data: { username: "ilse", acceptTerms: true },
    });
  });

  it.each([
    [{ username: "il" }, "username", "validation.usernameMin"],
    [{ email: "not-an-email" }, "email", "validation.email"],
    [{ password: "12345", confirmPassword: "12345" }, "password", "validation.passwordMin"],
    [{ confirmPassword: "different" }, "confirmPassword", "validation.passwordsMatch"],
    [{ acceptTerms: "" }, "acceptTerms", "validation.acceptTerms"],
  ])("%j gives %s: %s", (change, field, message) => {
    const result = parseForm(registerSchema, form({ ...valid, ...change }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[field]).toBe(message);
  });

  it("keeps passwords whole: 64 and more characters are fine, nothing is truncated", () => {
    const long = "a".repeat(200);
    const result = parseForm(registerSchema, form({ ...valid, password: long, confirmPassword: long }));
    expect(result).toMatchObject({ ok: true, data: { password: long } });
  });
});

describe("loginSchema", () => {
  it("gives the spec's messages", () => {
    const result = parseForm(loginSchema, form({ email: "x", password: "123" }));
    expect(result).toEqual({
      ok: false,
      errors: { email: "validation.email", password: "validation.passwordMin" },
    });
  });
});
