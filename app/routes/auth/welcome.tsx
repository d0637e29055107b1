import "~/i18n/full-catalogue";
import { data } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { announcedWelcomeBonus } from "~/features/auth/welcome.server";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import type { Route } from "./+types/welcome";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const bonus = await announcedWelcomeBonus(request, user.id);
  return data(
    { username: user.username, bonus: bonus?.coins },
    { headers: bonus ? { "Set-Cookie": bonus.setCookie } : undefined },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Welcome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Each tip leads to where it comes true: the first chapter, the achievements, the streak on the dashboard.
  const tips = [
    { key: "read", to: "/chapter/1" },
    { key: "achievements", to: "/achievements" },
    { key: "streaks", to: "/account#streak" },
  ] as const;
  return (
    <div className="mx-auto flex max-w-3xl flex-col items-center gap-8 px-4 py-14 text-center sm:px-6">
      <DocumentTitle name={t("auth.welcome.title", { username: loaderData.username })} />
      <h1 className="font-display text-3xl text-primary wrap-anywhere sm:text-4xl">
        {t("auth.welcome.title", { username: loaderData.username })}
      </h1>
      {loaderData.bonus !== undefined && (
        <>
          <p className="rounded-full border-2 border-primary px-6 py-2 font-display text-2xl text-primary">
            {t("auth.welcome.bonus", { count: loaderData.bonus })}
          </p>
          <p className="text-lg">{t("auth.welcome.bonusText")}</p>
        </>
      )}
      <ul className="grid w-full gap-4 text-left sm:grid-cols-3">
        {tips.map((tip) => (
          <li key={tip.key} className="rounded-xl border border-line bg-[color:var(--surface)] p-5">
            <h2 className="font-display text-lg text-primary">
              <Link to={tip.to} className="underline underline-offset-4">
                {t(`auth.welcome.tips.${tip.key}.title`)}
              </Link>
            </h2>
            <p className="mt-2 text-muted">{t(`auth.welcome.tips.${tip.key}.text`)}</p>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/chapter/1" className={buttonClass("primary")}>
          {t("home.startChapterOne")}
        </Link>
        <Link to="/account" className={buttonClass("outline")}>
          {t("auth.welcome.dashboard")}
        </Link>
        <Link to="/wiki" className={buttonClass("outline")}>
          {t("auth.welcome.explore")}
        </Link>
      </div>
    </div>
  );
}
