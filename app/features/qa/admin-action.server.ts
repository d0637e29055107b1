import { data, redirect } from "react-router";
import type { SessionUser } from "~/features/auth/session.server";
import { parseForm } from "~/lib/forms";
import { answerQuestion, saveMonth } from "./commands.server";
import { answerSchema, isMonthKey, type MonthKey, monthSchema } from "./rules";

const adminPath = (month: string, done: string) => `/admin/qa?month=${month}&done=${done}`;

/**
 * The /admin/qa forms (ADR 82): an answer to one question, or the month's page saved or published. Every
 * change is audited by its command; a refused form is named beside its fields (400), an unknown question 404.
 */
export async function answerAdminQa(author: SessionUser, form: FormData, current: MonthKey) {
  const actor = { via: "admin" as const, userId: author.id };
  if (form.get("intent") === "answer") {
    const parsed = parseForm(answerSchema, form);
    if (!parsed.ok) return data({ intent: "answer", errors: parsed.errors }, 400);
    const outcome = await answerQuestion(parsed.data.question, parsed.data.answer, actor);
    if (!outcome.ok) return data({ intent: "answer", errors: { form: "admin.qa.errors.notFound" } }, 404);
    return redirect(`${adminPath(outcome.month, "answer")}#question-${parsed.data.question}`);
  }
  const month = String(form.get("month") ?? "");
  // A month to come has no questions yet: nothing to publish.
  if (!isMonthKey(month) || month > current)
    return data({ intent: "month", errors: { form: "admin.qa.errors.invalid" } }, 400);
  const parsed = parseForm(monthSchema, form);
  if (!parsed.ok) return data({ intent: "month", errors: parsed.errors }, 400);
  const outcome = await saveMonth(month, parsed.data, actor);
  const done = parsed.data.intent === "publish" ? (outcome.published ? "published" : "already") : "saved";
  return redirect(adminPath(month, done));
}
