// Its texts are not in the core catalogue, which every page carries: this screen, loaded only when shown,
// brings the full catalogue with it.
import "~/i18n/full-catalogue";
import { useTranslation } from "~/i18n/react";
import { ErrorScreen } from "./error-screen";

/** The database briefly out of reach (a 503 with Retry-After, ADR 14): the reader is asked to try again soon. */
export function OutageScreen() {
  const { t } = useTranslation();
  return <ErrorScreen title={t("outage.title")} body={t("outage.body")} />;
}
