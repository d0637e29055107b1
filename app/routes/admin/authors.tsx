import "~/i18n/full-catalogue";
import { Form } from "react-router";
import { z } from "zod";
import { listAuthors, setAuthor } from "~/features/admin/roles.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { formFailure } from "~/features/auth/responses.server";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice } from "~/ui/form";
import { Panel } from "~/ui/page";
import type { Route } from "./+types/authors";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return { authors: await listAuthors() };
}

const roleSchema = z.object({
  intent: z.enum(["grant", "revoke"], { error: "admin.authors.unknown" }),
  email: z
    .string({ error: "validation.email" })
    .trim()
    .min(3, { error: "validation.email" })
    .max(254, { error: "validation.email" }),
});

type ActionResult = { done?: string; email?: string; errors?: Record<string, string> };

/** Grants or revokes the author role by e-mail (audited; never the last author). */
export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const parsed = parseForm(roleSchema, await readForm(request));
  if (!parsed.ok) return formFailure({ errors: parsed.errors });
  const { intent, email } = parsed.data;
  const outcome = await setAuthor(email, intent === "grant", { via: "admin", userId: author.id });
  if (outcome === "unknownEmail") return formFailure({ errors: { email: "admin.authors.unknownEmail" } });
  if (outcome === "lastAuthor") return formFailure({ errors: { email: "admin.authors.lastAuthor" } }, 409);
  return { done: `admin.authors.${outcome}`, email } satisfies ActionResult;
}

export default function AdminAuthors({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const { authors } = loaderData;
  return (
    <>
      <DocumentTitle name={t("admin.authors.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.authors.title")}</h1>
      {result?.done ? <FormNotice>{t(result.done, { email: result.email })}</FormNotice> : null}
      {result?.errors?.intent ? <FormAlert>{t(result.errors.intent)}</FormAlert> : null}
      <Panel id="current" title={t("admin.authors.current")}>
        <ul className="flex flex-col divide-y divide-line">
          {authors.map((account) => (
            <li key={account.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span>
                {account.username} <span className="text-muted">· {account.email}</span>
              </span>
              {authors.length > 1 ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="email" value={account.email} />
                  <button
                    type="submit"
                    className={buttonClass("outline")}
                    aria-label={t("admin.authors.revokeOne", { username: account.username })}
                  >
                    {t("admin.authors.revoke")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        {authors.length === 1 ? (
          <p className="mt-3 text-sm text-muted">{t("admin.authors.onlyOne")}</p>
        ) : null}
      </Panel>
      <Panel id="grant" title={t("admin.authors.grantTitle")}>
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="grant" />
          <Field
            name="email"
            type="email"
            label={t("admin.authors.email")}
            hint={t("admin.authors.hint")}
            error={result?.errors?.email}
            maxLength={254}
            required
          />
          <button type="submit" className={buttonClass("primary", "self-start")}>
            {t("admin.authors.grant")}
          </button>
        </Form>
      </Panel>
    </>
  );
}
