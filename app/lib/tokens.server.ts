import crypto from "node:crypto";

/** 256 random bits from the CSPRNG, URL-safe. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** Tokens are stored only as their SHA-256, so a database leak yields no usable token. */
export function hashToken(token: string): string {
  return crypto.hash("sha256", token, "base64url");
}
