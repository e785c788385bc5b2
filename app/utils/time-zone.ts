/**
 * Console times are shown and read in one zone per visitor: the browser's, once its script has
 * told the server (the `tz` cookie), else the server's. Server render and hydration then print
 * the same text (a page formatted in the server's zone and again in the browser's made React
 * drop the server's HTML and render the whole page anew), and a time typed into a form means
 * the time its writer sees. Shared by server and browser: no server imports.
 */
export const TIME_ZONE_COOKIE = "tz";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** An IANA zone name this runtime knows ("Asia/Shanghai", "UTC"). */
export function isTimeZone(name: string | null | undefined): name is string {
  if (!name || name.length > 64) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallClockAt(ms: number, timeZone: string): WallClock {
  const clock: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type in clock) clock[part.type as keyof WallClock] = Number(part.value);
  }
  return clock;
}

const MAX_DATE_MS = 8.64e15;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "YYYY-MM-DD HH:mm:ss" in `timeZone`; "-" for an unset time (0 or below). */
export function formatTimestamp(seconds: number, timeZone: string): string {
  if (!seconds || seconds <= 0) return "-";
  // Beyond what a Date can hold (±8.64e15 ms) Intl throws RangeError: a stored value from before
  // expiry was range-checked (99999999999999) is shown as the number it is, never a 500.
  if (!Number.isFinite(seconds) || seconds * 1000 > MAX_DATE_MS) return String(seconds);
  const c = wallClockAt(seconds * 1000, timeZone);
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)} ${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const c = wallClockAt(ms, timeZone);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(ms / 1000) * 1000;
}

// "2030-01-31 08:00", "2030-01-31 08:00:00", "2030-01-31T08:00" (datetime-local), "2030/01/31 08:00", "2030-01-31".
const WALL_CLOCK_TEXT = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
// A time that names its own offset keeps it: "2030-01-31T00:00:00Z", "…+08:00".
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date-time typed by a visitor, read as a wall-clock time in `timeZone`: unix seconds, or NaN
 * when it is not a real time (31 February, 25:00, words). Daylight-saving edges are read as
 * browsers read them.
 */
export function parseWallClock(text: string, timeZone: string): number {
  const value = text.trim();
  if (WITH_OFFSET.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? NaN : Math.floor(ms / 1000);
  }
  const match = WALL_CLOCK_TEXT.exec(value);
  if (!match) return NaN;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const asUtc = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  const check = new Date(asUtc);
  // Date.UTC rolls 31 February over into March: a field that changed was out of range.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  )
    return NaN;
  // The offsets in force a day either side: the time is one of the two instants they give (both,
  // in an hour the clocks go back over: the earlier; neither, in the hour they skip: the earlier offset's).
  const DAY = 86_400_000;
  const before = asUtc - offsetAt(asUtc - DAY, timeZone);
  const after = asUtc - offsetAt(asUtc + DAY, timeZone);
  const shows = (ms: number) => offsetAt(ms, timeZone) === asUtc - ms;
  const ms = [before, after].filter(shows).sort((a, b) => a - b)[0] ?? before;
  return Math.floor(ms / 1000);
}
