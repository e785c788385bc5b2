import { MAX_INT4, withoutNul, type TaskListFilter } from "~/domain/tasks/task-list";
import { formatTimestamp, parseWallClock } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";

/** The /midjourney and /task forms' fields (carried by the pager's links too). */
export const TASK_FORM_FIELDS = ["channel_id", "task_id", "start", "end"] as const;

function toDateTimeLocal(seconds: number, timeZone: string): string {
  return formatTimestamp(seconds, timeZone).replace(" ", "T").slice(0, 16);
}

function positiveInt(raw: string): number | undefined {
  if (!/^\d{1,10}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n > 0 && n <= MAX_INT4 ? n : undefined;
}

/**
 * The filter of the drawing and task log pages. Untouched (no `start` in the query), a page
 * opens on the product's default range: drawings from 30 days ago to an hour ahead, tasks from the
 * start of today. Drawing times are stored in milliseconds, task times in seconds.
 */
export function pageTaskFilter(
  request: Request,
  kind: "mj" | "task",
  scope: { userId: number } | "all",
): { filter: TaskListFilter; values: Record<string, string>; page: number } {
  const q = new URL(request.url).searchParams;
  const timeZone = requestTimeZone(request);
  const now = Math.floor(Date.now() / 1000);
  const values: Record<string, string> = Object.fromEntries(
    TASK_FORM_FIELDS.map((k) => [k, withoutNul((q.get(k) ?? "").trim().slice(0, 100))]),
  );
  if (!q.has("start")) {
    values.start =
      kind === "mj"
        ? toDateTimeLocal(now - 30 * 86_400, timeZone)
        : `${formatTimestamp(now, timeZone).slice(0, 10)}T00:00`;
    if (kind === "mj") values.end = toDateTimeLocal(now + 3_600, timeZone);
  }
  const seconds = (text: string | undefined) => {
    if (!text) return undefined;
    const value = parseWallClock(text, timeZone);
    return Number.isNaN(value) || value <= 0 ? undefined : value;
  };
  const unit = kind === "mj" ? 1000 : 1;
  const start = seconds(values.start);
  const end = seconds(values.end);
  const pageRaw = q.get("p") ?? "";
  return {
    filter: {
      userId: scope === "all" ? undefined : scope.userId,
      channelId: scope === "all" ? positiveInt(values.channel_id ?? "") : undefined,
      taskId: values.task_id || undefined,
      start: start === undefined ? undefined : start * unit,
      end: end === undefined ? undefined : end * unit + (unit - 1),
    },
    values,
    page: /^\d{1,6}$/.test(pageRaw) ? Number(pageRaw) : 0,
  };
}
