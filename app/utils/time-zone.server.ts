import { isTimeZone, TIME_ZONE_COOKIE } from "./time-zone";

let serverZone: string | undefined;

/**
 * The server's own zone (the TZ environment variable, else the host's): for visitors whose
 * browser has not said theirs. Asked of ICU at first use, not at start: ICU maps 5.5 MB of its
 * data into the process for it, which a node that only relays never needs (decision 039).
 */
function serverTimeZone(): string {
  serverZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  return serverZone;
}

/** The zone a console request's times are shown and read in: its `tz` cookie when it names a known zone. */
export function requestTimeZone(request: Request): string {
  const header = request.headers.get("Cookie");
  if (!header) return serverTimeZone();
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return serverTimeZone();
    }
    return isTimeZone(value) ? value : serverTimeZone();
  }
  return serverTimeZone();
}
