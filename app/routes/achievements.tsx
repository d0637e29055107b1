import "~/i18n/full-catalogue";
import { AchievementList } from "~/features/achievements/achievement-list";
import { achievementsPage } from "~/features/achievements/queries.server";
import { requireUser } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { keptForItsReader } from "~/lib/shareable";
import { Page } from "~/ui/page";
import type { Route } from "./+types/achievements";

/** Kept for the reader's session until anything of theirs changes (ADR 53). */
export const headers = keptForItsReader;

/** A signed-in reader's achievements (visitors are sent to sign in, as on /account). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return achievementsPage(user.id, getPreferences(request).language);
}

export default function Achievements({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page
      title={t("achievements.title")}
      intro={
        <p data-testid="achievement-total" className="font-display text-2xl text-primary">
          {t("achievements.count", { earned: loaderData.earnedCount, total: loaderData.total })}
        </p>
      }
      width="max-w-4xl"
    >
      <AchievementList items={loaderData.items} />
    </Page>
  );
}
