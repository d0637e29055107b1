let names: string[] | undefined;

/**
 * The zones /settings offers: the ones this Node's ICU knows (the list is built once), UTC (which the list
 * leaves out) and the reader's current zone if the list spells it otherwise (an older alias).
 */
export function timeZoneNames(current: string): string[] {
  names ??= [...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])].sort();
  return names.includes(current) ? names : [...names, current].sort();
}
