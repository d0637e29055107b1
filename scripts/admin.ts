/**
 * npm run admin -- grant-author <email>         make a registered reader an author (the admin opens to them)
 * npm run admin -- revoke-author <email>        make an author a reader again (never the last author)
 * npm run admin -- reset-second-factor <email>  remove an account's second factors and recovery codes, for an
 *                                               owner who lost them all (check it is them first: ADR 65)
 * Uses the same configuration as the server. On PGlite, while a server runs on the data directory, that
 * server makes the change (over its admin socket); the change is in the audit log as made from the command line.
 */
import { type RoleOutcome, setAuthor } from "~/features/admin/roles.server";
import { type ClearOutcome, clearFactorsByEmail } from "~/features/two-factor/factors.server";
import { getEnv } from "~/lib/env.server";
import { isUnstorableText } from "~/lib/unstorable-text";
import { askServer, CommandError, runCommand, withAppDatabase } from "./cli";

const usage =
  "usage: npm run admin -- grant-author <email> | revoke-author <email> | reset-second-factor <email>";

const messages: Record<RoleOutcome, (email: string) => string> = {
  granted: (email) => `${email} is now an author: the admin is at /admin`,
  revoked: (email) => `${email} is a reader again`,
  unchanged: (email) => `${email} already has that role: nothing changed`,
  unknownEmail: (email) => `No account has the e-mail ${email}: register it first`,
  lastAuthor: (email) => `${email} is the last author: grant another account first`,
};

const clearMessages: Record<ClearOutcome, (email: string, removed: number) => string> = {
  cleared: (email, removed) =>
    `${email}: ${removed} second factor(s) and the recovery codes removed; the password alone signs in now`,
  none: (email) => `${email} has no second factor: nothing changed`,
  unknownEmail: (email) => `No account has the e-mail ${email}`,
};

async function resetSecondFactor(email: string) {
  const env = getEnv();
  let result: { outcome: ClearOutcome; removed: number } | undefined;
  const opened = await withAppDatabase(env, async () => {
    result = await clearFactorsByEmail(email);
  });
  if (!opened)
    result = (await askServer(env.dataDir, "/second-factor", { email })) as {
      outcome: ClearOutcome;
      removed: number;
    };
  if (!result || !(result.outcome in clearMessages)) throw new CommandError("The change was not made");
  const message = clearMessages[result.outcome](email, result.removed);
  if (result.outcome === "unknownEmail") throw new CommandError(message);
  console.log(message);
}

async function main() {
  const [command, email] = process.argv.slice(2);
  if (email && command === "reset-second-factor") return resetSecondFactor(email);
  if (!email || (command !== "grant-author" && command !== "revoke-author")) throw new CommandError(usage);
  // Typed or pasted by an operator: a NUL or a broken character is refused here, before any query.
  if (isUnstorableText(email) || email.length > 254) {
    throw new CommandError(
      "That e-mail holds a character no e-mail has (a NUL or a broken character), or is too long",
    );
  }
  const grant = command === "grant-author";
  const env = getEnv();
  let outcome: RoleOutcome | undefined;
  const opened = await withAppDatabase(env, async () => {
    outcome = await setAuthor(email, grant, { via: "cli" });
  });
  if (!opened)
    outcome = ((await askServer(env.dataDir, "/role", { email, grant })) as { outcome: RoleOutcome }).outcome;
  if (!outcome || !(outcome in messages)) throw new CommandError("The change was not made");
  const text = messages[outcome](email);
  if (outcome === "unknownEmail" || outcome === "lastAuthor") throw new CommandError(text);
  console.log(text);
}

runCommand(main);
