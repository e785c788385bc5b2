import type { Channel } from "../../../db/schema";
import { applySunoState, unfinishedSunoTasks, type SunoTaskState, type TaskRow } from "~/domain/tasks/suno.server";
import { getDb } from "~/utils/db.server";
import { callTaskUpstream, parseJsonBody } from "./task-upstream.server";

/**
 * The Suno poller (decision 030): up to 500 unfinished tasks per pass, per channel through
 * `POST {base}/suno/fetch {ids}`; FAILURE refunds exactly once (applySunoState). As in the
 * reference there is no age limit for Suno tasks.
 */
const BATCH = 100;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function seconds(value: unknown): number {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,12}$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** Suno-API reports no progress; the states stand for rough steps. */
const STEP_PROGRESS: Record<string, string> = {
  NOT_START: "0%",
  SUBMITTED: "10%",
  QUEUED: "20%",
  IN_PROGRESS: "50%",
  UNKNOWN: "0%",
};

export function readReportedSunoTask(value: unknown): (SunoTaskState & { id: string }) | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const id = text(o.task_id) || text(o.id);
  if (!id) return undefined;
  const status = text(o.status).toUpperCase().slice(0, 20) || "UNKNOWN";
  const progress = /^\d{1,3}%$/.test(text(o.progress)) ? text(o.progress) : (STEP_PROGRESS[status] ?? "0%");
  // The clips are kept as reported, unless they are implausibly large.
  const data = o.data === undefined ? undefined : JSON.stringify(o.data).length <= 200_000 ? o.data : null;
  return {
    id,
    status,
    failReason: text(o.fail_reason),
    progress,
    submitTime: seconds(o.submit_time),
    startTime: seconds(o.start_time),
    finishTime: seconds(o.finish_time),
    data,
  };
}

let running = false;

export async function pollSunoTasks(): Promise<string> {
  if (running) return "a pass is still running";
  running = true;
  try {
    return await pollOnce();
  } finally {
    running = false;
  }
}

async function pollOnce(): Promise<string> {
  const rows = await unfinishedSunoTasks(500);
  if (rows.length === 0) return "no unfinished suno tasks";
  const byChannel = new Map<number, TaskRow[]>();
  for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
  const db = await getDb();
  const channels = await db
    .selectFrom("channels")
    .selectAll()
    .where("id", "in", [...byChannel.keys()])
    .execute();
  const known = new Map<number, Channel>(channels.map((c) => [c.id, c]));
  let updated = 0;
  let refunded = 0;
  const errors: string[] = [];
  const count = (outcome: string) => {
    if (outcome === "refunded") refunded += 1;
    else if (outcome === "updated") updated += 1;
  };
  for (const [channelId, tasks] of byChannel) {
    const channel = known.get(channelId);
    if (!channel) {
      for (const row of tasks)
        count(
          await applySunoState(row, {
            status: "FAILURE",
            failReason: "渠道已不存在",
            progress: "100%",
            submitTime: 0,
            startTime: 0,
            finishTime: 0,
            data: undefined,
          }),
        );
      continue;
    }
    for (let i = 0; i < tasks.length; i += BATCH) {
      const batch = tasks.slice(i, i + BATCH);
      try {
        const reply = await callTaskUpstream(channel, {
          method: "POST",
          path: "/suno/fetch",
          body: JSON.stringify({ ids: batch.map((r) => r.task_id) }),
          auth: "bearer",
          timeoutMs: 15_000,
        });
        const parsed =
          reply.status === 200
            ? (parseJsonBody(reply.body) as { code?: unknown; data?: unknown } | undefined)
            : undefined;
        if (!parsed || parsed.code !== "success" || !Array.isArray(parsed.data)) {
          errors.push(`channel #${channelId}: HTTP ${reply.status}`);
          continue;
        }
        const reported = new Map(
          parsed.data
            .map(readReportedSunoTask)
            .filter((t) => t !== undefined)
            .map((t) => [t.id, t]),
        );
        for (const row of batch) {
          const task = reported.get(row.task_id);
          if (task) count(await applySunoState(row, task));
        }
      } catch (error) {
        errors.push(`channel #${channelId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return `suno tasks: ${rows.length} unfinished, ${updated} updated, ${refunded} failed and refunded${errors.length ? `; ${errors.join("; ")}` : ""}`;
}
