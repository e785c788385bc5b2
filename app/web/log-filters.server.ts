import { readLogFilter, type LogFilter } from "~/domain/logs/logs.server";
import { formatTimestamp, parseWallClock } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";

/** The /log form's fields (also carried by its page links and the CSV export link). */
export const LOG_FORM_FIELDS = ["type", "token_name", "model_name", "start", "end", "username", "channel"] as const;

/** A datetime-local field, in the zone the page shows its times in → unix seconds. */
function toSeconds(value: string | null, timeZone: string): string {
  if (!value) return "";
  const seconds = parseWallClock(value, timeZone);
  return Number.isNaN(seconds) ? "" : String(seconds);
}

/** Unix seconds → a datetime-local field's value ("YYYY-MM-DDTHH:mm") in `timeZone`. */
function toField(seconds: number, timeZone: string): string {
  return formatTimestamp(seconds, timeZone).slice(0, 16).replace(" ", "T");
}

/** The usage log opens on a past day up to an hour ahead, so rows arriving meanwhile still show. */
export const DEFAULT_LOG_LOOKBACK_SECONDS = 24 * 3600;
export const DEFAULT_LOG_LOOKAHEAD_SECONDS = 3600;

/**
 * The filter of the /log page and its CSV export, from the form's fields. They map onto the
 * log API's parameters, so the page, the export and /api/log agree; a user is pinned to their own rows.
 */
export function pageLogFilter(
  request: Request,
  scope: { userId: number } | "all",
  { defaultRange = true, now = Math.floor(Date.now() / 1000) }: { defaultRange?: boolean; now?: number } = {},
): { filter: LogFilter; values: Record<string, string> } {
  const q = new URL(request.url).searchParams;
  const timeZone = requestTimeZone(request);
  // A fresh visit gets the default range, shown in the form; a submitted form (whose fields are
  // present, even empty ones the admin cleared) is taken as it is. The export follows its link:
  // the page's link carries the range, a script's URL without one gets every row.
  if (defaultRange && !q.has("start") && !q.has("end")) {
    q.set("start", toField(now - DEFAULT_LOG_LOOKBACK_SECONDS, timeZone));
    q.set("end", toField(now + DEFAULT_LOG_LOOKAHEAD_SECONDS, timeZone));
  }
  const params = new URLSearchParams({
    type: q.get("type") ?? "0",
    token_name: q.get("token_name") ?? "",
    model_name: q.get("model_name") ?? "",
    start_timestamp: toSeconds(q.get("start"), timeZone),
    end_timestamp: toSeconds(q.get("end"), timeZone),
    username: q.get("username") ?? "",
    channel: q.get("channel") ?? "",
  });
  const values = Object.fromEntries(LOG_FORM_FIELDS.map((k) => [k, q.get(k) ?? ""]));
  return { filter: readLogFilter(params, scope), values };
}
