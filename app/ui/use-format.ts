import { useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n/react";
import { formatDate, formatMoney, formatNumber } from "~/lib/format";

type RootData = { timeZone?: string } | undefined;

/**
 * Formatters in the interface language. Dates use the reader's time zone from the `tz` cookie (UTC until the
 * head script has set it), the same on server and client, so hydration matches.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const root = useRouteLoaderData("root") as RootData;
  const language = i18n.language;
  const timeZone = root?.timeZone ?? "UTC";
  return {
    date: (iso: string | Date, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }) =>
      formatDate(new Date(iso), language, timeZone, options),
    money: (cents: number, currency: string, options?: { minor?: boolean }) =>
      formatMoney(cents, currency, language, options),
    number: (value: number) => formatNumber(value, language),
  };
}
