import "~/i18n/full-catalogue";
import { data } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { loadSupporterPanel } from "~/features/fundraiser/account.server";
import { SupporterPanel, type SupporterUpdateResult } from "~/features/fundraiser/supporter-panel";
import { updateWallChoice } from "~/features/fundraiser/supporters.server";
import { toSupporterChoice, wallChoiceSchema } from "~/features/fundraiser/wall-choice";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { Link } from "~/ui/link";
import { Page, Panel } from "~/ui/page";
import type { Route } from "./+types/supporter";

/**
 * POST /account/supporter: the reader changes how they appear on the wall. The account's panel posts here,
 * and this page shows the panel with the answer and the way back to the account.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { panel: await loadSupporterPanel(user) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(wallChoiceSchema, await readForm(request));
  if (!parsed.ok) return data<SupporterUpdateResult>({ errors: parsed.errors }, { status: 400 });
  const saved = await updateWallChoice(user.id, toSupporterChoice(parsed.data));
  if (!saved) return data<SupporterUpdateResult>({ formError: "supporters.account.notYet" }, { status: 409 });
  return { saved: true } satisfies SupporterUpdateResult;
}

export default function SupporterSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page title={t("supporters.account.title")} width="max-w-3xl">
      <Panel id="supporter" title={t("supporters.account.title")}>
        <SupporterPanel data={loaderData.panel} result={actionData} />
      </Panel>
      <p className="mt-6 text-center">
        <Link to="/account" className="text-primary underline underline-offset-2">
          {t("supporters.account.back")}
        </Link>
      </p>
    </Page>
  );
}
