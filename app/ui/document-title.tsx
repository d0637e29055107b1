import { useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n/react";

/**
 * The page's `<title>`: its name, then the site's ("Shop · Crimson Covenant"), in the page's language. React
 * hoists it into the head, on the server and on client navigations alike, and it also works in the error
 * boundary, where React Router calls no route's `meta`. A name holding the site's already stands alone.
 */
export function DocumentTitle({ name }: { name: string }) {
  const { t } = useTranslation();
  const site = (useRouteLoaderData("root") as { site?: { title: string } } | undefined)?.site?.title;
  const title = site && !name.includes(site) ? t("common.documentTitle", { page: name, site }) : name;
  return <title>{title}</title>;
}
