/** Filters of the drawing and task lists (query string: p, channel_id, mj_id or task_id, start_timestamp, end_timestamp). */
export type TaskListFilter = {
  userId?: number;
  channelId?: number;
  taskId?: string;
  start?: number;
  end?: number;
};

export const TASK_PAGE_SIZE = 10;

function positiveInt(raw: string | null): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The 0-based page of the reference's mj and task lists (garbage reads as the first page). */
export function readTaskPage(params: URLSearchParams): number {
  const raw = params.get("p");
  if (!raw || !/^\d{1,6}$/.test(raw)) return 0;
  return Number(raw);
}

/** The list filter from a query string; `idParam` is mj_id or task_id. Times are in the table's unit (ms for drawings, s for tasks). */
export function readTaskFilter(params: URLSearchParams, idParam: "mj_id" | "task_id", scope: { userId: number } | "all"): TaskListFilter {
  const taskId = (params.get(idParam) ?? "").trim().slice(0, 100);
  return {
    userId: scope === "all" ? undefined : scope.userId,
    channelId: scope === "all" ? positiveInt(params.get("channel_id")) : undefined,
    taskId: taskId || undefined,
    start: positiveInt(params.get("start_timestamp")),
    end: positiveInt(params.get("end_timestamp")),
  };
}
