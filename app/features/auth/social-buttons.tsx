import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";

const names = { discord: "Discord", google: "Google" } as const;

/** Social sign-in buttons, only for configured providers. A POST starts the flow (state changes only by POST). */
export function SocialButtons({
  providers,
  redirectTo,
}: {
  providers: ("discord" | "google")[];
  redirectTo: string;
}) {
  const { t } = useTranslation();
  if (providers.length === 0) return null;
  return (
    <div className="mt-6 flex flex-col gap-3">
      <p className="text-center text-sm text-muted">{t("auth.social.or")}</p>
      {providers.map((provider) => (
        <Form key={provider} method="post" action={`/auth/${provider}`} reloadDocument>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" className={buttonClass("outline", "w-full")}>
            {t("auth.social.continueWith", { provider: names[provider] })}
          </button>
        </Form>
      ))}
    </div>
  );
}
