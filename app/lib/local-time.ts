/**
 * Calendar days and wall-clock times in a time zone, as "YYYY-MM-DD" and "YYYY-MM-DD HH:MM:SS" strings.
 * Days are counted as whole numbers (days since 1970-01-01) so that day arithmetic never meets a
 * daylight-saving change: a calendar day is a label, not 24 hours.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock time at `instant` in `timeZone` (an IANA name Intl accepts). */
export function localDateTime(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The wall-clock time at `instant` in `timeZone` as a datetime-local input shows it ("YYYY-MM-DDTHH:MM"). */
export function wallClockInput(instant: Date, timeZone: string): string {
  return localDateTime(instant, timeZone).slice(0, 16).replace(" ", "T");
}

/** The zone's offset from UTC at an instant, in milliseconds (local wall time minus UTC, whole seconds). */
export function offsetAt(at: number, timeZone: string): number {
  const local = Date.parse(`${localDateTime(new Date(at), timeZone).replace(" ", "T")}Z`);
  return local - Math.floor(at / 1000) * 1000;
}

/** The calendar day at `instant` in `timeZone`. */
export function localDay(instant: Date, timeZone: string): string {
  return localDateTime(instant, timeZone).slice(0, 10);
}

/** Days since 1970-01-01 of a "YYYY-MM-DD" day. */
export function dayNumber(day: string): number {
  return Math.round(
    Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000,
  );
}

/** The "YYYY-MM-DD" day of a day number. */
export function dayOfNumber(number: number): string {
  return new Date(number * 86_400_000).toISOString().slice(0, 10);
}

/** The day `count` days after `day` (before, when negative). */
export function addDays(day: string, count: number): string {
  return dayOfNumber(dayNumber(day) + count);
}

/**
 * The instant at which the wall clock in `timeZone` shows `local` ("YYYY-MM-DDTHH:MM", as a
 * datetime-local input sends it). Near a daylight-saving change the zone has two offsets: the one whose
 * instant shows that wall time wins; a time the change skips lands an hour later, as clocks do.
 */
export function instantAt(local: string, timeZone: string): Date {
  const wall = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  if (first === second) return new Date(first);
  const shows = (at: number) =>
    Date.parse(`${localDateTime(new Date(at), timeZone).replace(" ", "T")}Z`) === wall;
  if (shows(second)) return new Date(second);
  if (shows(first)) return new Date(first);
  return new Date(Math.max(first, second));
}
