import { hash, verify } from "@node-rs/argon2";

/** argon2id with OWASP's minimum: 19 MiB, two passes, one lane (docs/security-model.md S1). */
// Algorithm.Argon2id is 2 in @node-rs/argon2 (a const enum, which isolated modules cannot read).
const ARGON2ID = 2;
export const passwordParams = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(
  password: string,
  params: { memoryCost?: number; timeCost?: number } = {},
): Promise<string> {
  return hash(password, { ...passwordParams, ...params });
}

/** True when a stored hash is of another algorithm or weaker parameters than ours: rehash it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!match) return true;
  const [, m, t, p] = match.map(Number);
  return (
    (m ?? 0) < passwordParams.memoryCost ||
    (t ?? 0) < passwordParams.timeCost ||
    p !== passwordParams.parallelism
  );
}

let dummy: Promise<string> | undefined;

/**
 * Verifies a password. With no stored hash (unknown e-mail, or a social-only account) it still spends the
 * time of a real verification, so timing does not tell whether an account exists.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword("not the password of anyone");
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
