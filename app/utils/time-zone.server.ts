import { isTimeZone, TIME_ZONE_COOKIE } from "./time-zone";

/** The server's own zone (the TZ environment variable, else the host's): for visitors whose browser has not said theirs. */
export const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The zone a console request's times are shown and read in: its `tz` cookie when it names a known zone. */
export function requestTimeZone(request: Request): string {
  const header = request.headers.get("Cookie");
  if (!header) return SERVER_TIME_ZONE;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return SERVER_TIME_ZONE;
    }
    return isTimeZone(value) ? value : SERVER_TIME_ZONE;
  }
  return SERVER_TIME_ZONE;
}
