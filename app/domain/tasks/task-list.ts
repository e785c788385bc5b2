/** Filters of the drawing and task lists (query string: p, channel_id, mj_id or task_id, start_timestamp, end_timestamp). */
export type TaskListFilter = {
  userId?: number;
  channelId?: number;
  taskId?: string;
  start?: number;
  end?: number;
};

export const TASK_PAGE_SIZE = 10;

function positiveInt(raw: string | null, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (!raw || !/^\d{1,16}$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 && n <= max ? n : undefined;
}

/** Channel ids are int4 columns: a larger filter value matches nothing, so it is no filter. */
export const MAX_INT4 = 2_147_483_647;

/** Text without NUL characters (PostgreSQL text and jsonb cannot hold them). */
export function withoutNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A JSON value jsonb accepts: NUL characters removed from every string in it, and lone UTF-16
 * surrogates (which JSON.stringify writes as `\ud800` escapes jsonb refuses) replaced by U+FFFD.
 */
export function jsonWithoutNul(value: unknown): unknown {
  if (typeof value === "string") return withoutNul(value).replace(LONE_SURROGATE, "\uFFFD");
  if (Array.isArray(value)) return value.map(jsonWithoutNul);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [jsonWithoutNul(k) as string, jsonWithoutNul(v)]));
  return value;
}

/** The 0-based page of the reference's mj and task lists (garbage reads as the first page). */
export function readTaskPage(params: URLSearchParams): number {
  const raw = params.get("p");
  if (!raw || !/^\d{1,6}$/.test(raw)) return 0;
  return Number(raw);
}

/** The list filter from a query string; `idParam` is mj_id or task_id. Times are in the table's unit (ms for drawings, s for tasks). */
export function readTaskFilter(
  params: URLSearchParams,
  idParam: "mj_id" | "task_id",
  scope: { userId: number } | "all",
): TaskListFilter {
  const taskId = withoutNul((params.get(idParam) ?? "").trim().slice(0, 100));
  return {
    userId: scope === "all" ? undefined : scope.userId,
    channelId: scope === "all" ? positiveInt(params.get("channel_id"), MAX_INT4) : undefined,
    taskId: taskId || undefined,
    start: positiveInt(params.get("start_timestamp")),
    end: positiveInt(params.get("end_timestamp")),
  };
}
