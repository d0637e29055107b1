import { describe, expect, it } from "vitest";
import { FieldError } from "~/features/auth/commands.server";
import { Throttled } from "~/features/auth/throttle.server";
import { InsufficientCoins } from "~/features/coins/ledger.server";
import { ContentError } from "~/features/content/files.server";
import { CheckoutError } from "~/features/payments/checkout.server";
import { PaymentMismatch } from "~/features/payments/fulfil.server";
import { BadSignature } from "~/features/payments/provider.server";
import { AppError, appErrorResponse, describeError } from "~/lib/errors";

describe("describeError: one mapping from an error to its code, status and message key", () => {
  it.each([
    [
      new FieldError("email", "validation.emailTaken"),
      "invalid-field",
      400,
      "validation.emailTaken",
      "FieldError",
    ],
    [new Throttled(60), "throttled", 429, "auth.throttled", "Throttled"],
    [new InsufficientCoins(), "insufficient-coins", 409, "reader.unlock.insufficient", "InsufficientCoins"],
    [
      new CheckoutError("unknown-item", 404, "payments.errors.unknownItem"),
      "unknown-item",
      404,
      "payments.errors.unknownItem",
      "CheckoutError",
    ],
    [new BadSignature("no header"), "bad-signature", 400, "error.body", "BadSignature"],
    [new PaymentMismatch("amount"), "mismatch", 400, "error.body", "PaymentMismatch"],
    [new ContentError("a.md: no front matter"), "content-invalid", 422, "error.body", "ContentError"],
  ])("%s", (error, code, status, messageKey, name) => {
    expect(error).toBeInstanceOf(AppError);
    expect(error.name).toBe(name);
    expect(describeError(error)).toEqual({ code, status, messageKey });
  });

  it("keeps the fields the callers read and the messages they had", () => {
    const field = new FieldError("email", "validation.emailTaken");
    expect([field.field, field.messageKey, field.message]).toEqual([
      "email",
      "validation.emailTaken",
      "email: validation.emailTaken",
    ]);
    expect(new Throttled(90).retryAfterSeconds).toBe(90);
    expect(new ContentError("a.md: no front matter").message).toBe("a.md: no front matter");
  });

  it("gives any other error its SQLSTATE or class and the status it asks for, else 500", () => {
    const unique = new Error("Failed query: insert … params: secret", { cause: { code: "23505" } });
    expect(describeError(unique)).toEqual({ code: "23505", status: 500 });
    expect(describeError(Object.assign(new Error("too large"), { status: 413 }))).toEqual({
      code: "Error",
      status: 413,
    });
    expect(describeError("thrown text")).toEqual({ code: "string", status: 500 });
  });

  it("answers an application error with its status, code and message key, never its message", async () => {
    const response = appErrorResponse(new Throttled(60));
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: "throttled", messageKey: "auth.throttled" });
  });
});
