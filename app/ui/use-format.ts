import { useTranslation } from "~/i18n/react";
import { formatDate, formatMoney, formatNumber } from "~/lib/format";
import { useTimeZone } from "./time-zone";

/**
 * Formatters in the interface language. Dates use the reader's time zone from the `tz` cookie (UTC until the
 * boot script has set it), the same on server and client, so hydration matches (`useTimeZone`).
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const timeZone = useTimeZone();
  return {
    date: (iso: string | Date, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }) =>
      formatDate(new Date(iso), language, timeZone, options),
    money: (cents: number, currency: string, options?: { minor?: boolean }) =>
      formatMoney(cents, currency, language, options),
    number: (value: number) => formatNumber(value, language),
  };
}
