import { data, redirect } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { askQuestion } from "./commands.server";
import { QA_LIMITS, questionSchema } from "./rules";

const refusals = { tier: 403, limit: 409, closed: 409 } as const;

/**
 * The /qa form's action: a visitor is sent to sign in; a bad question is named beside its field (400); a
 * reader whose tier does not ask (403), past the month's limit or in a published month (409) is told why.
 */
export async function answerAsk(request: Request) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const values = { question: echoedValue(form, "question", QA_LIMITS.questionMax + 100) };
  const parsed = parseForm(questionSchema, form);
  if (!parsed.ok) return data({ errors: parsed.errors, values }, 400);
  const outcome = await askQuestion(user.id, parsed.data);
  if (!outcome.ok) {
    const error = outcome.reason === "tier" ? "qa.errors.tier" : `qa.errors.${outcome.reason}`;
    return data({ error, values }, refusals[outcome.reason]);
  }
  return redirect("/qa?asked=1");
}
