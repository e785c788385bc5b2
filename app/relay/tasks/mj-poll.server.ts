import type { Channel } from "../../../db/schema";
import { applyMjState, unfinishedMjTasks, type MjRow, type MjTaskState } from "~/domain/tasks/midjourney.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { readReportedMjTask } from "./mj-wire";
import { callTaskUpstream, parseJsonBody } from "./task-upstream.server";

/**
 * The Midjourney poller (a recurring job, decision 030): unfinished tasks, per channel, asked
 * about in batches through the proxy's `list-by-condition`; a task unfinished past
 * MJ_TASK_TIMEOUT_SECONDS is failed and refunded. Every change goes through applyMjState, whose
 * conditional UPDATE makes two pollers (or a poll and a notify) refund at most once.
 */
const BATCH = 100;
const MAX_TASKS_PER_PASS = 2_000;

function failure(reason: string): MjTaskState {
  return {
    status: "FAILURE",
    progress: "100%",
    imageUrl: "",
    failReason: reason,
    promptEn: "",
    description: "",
    state: "",
    submitTime: 0,
    startTime: 0,
    finishTime: 0,
    buttons: "",
    properties: "",
  };
}

/** The reference's wording for its one-hour rule, for whatever limit is configured. */
export function timeoutReason(seconds: number): string {
  if (seconds % 3600 === 0) return `上游任务超时（超过${seconds / 3600}小时）`;
  if (seconds % 60 === 0) return `上游任务超时（超过${seconds / 60}分钟）`;
  return `上游任务超时（超过${seconds}秒）`;
}

/** Keeps what the row already has where the proxy's report is silent (a state, an English prompt). */
function merged(row: MjRow, reported: MjTaskState): MjTaskState {
  return {
    ...reported,
    promptEn: reported.promptEn || row.prompt_en,
    state: reported.state || row.state,
    imageUrl: reported.imageUrl || row.image_url,
    startTime: reported.startTime || row.start_time,
    buttons: reported.buttons || row.buttons,
    properties: reported.properties || row.properties,
  };
}

let running = false;

export async function pollMidjourneyTasks(now = Date.now()): Promise<string> {
  // In-process timers do not wait for a slow pass; BullMQ runs one at a time across nodes anyway.
  if (running) return "a pass is still running";
  running = true;
  try {
    return await pollOnce(now);
  } finally {
    running = false;
  }
}

async function pollOnce(now: number): Promise<string> {
  const rows = await unfinishedMjTasks(MAX_TASKS_PER_PASS);
  if (rows.length === 0) return "no unfinished drawing tasks";
  let refunded = 0;
  let updated = 0;
  const count = (outcome: string) => {
    if (outcome === "refunded") refunded += 1;
    else if (outcome === "updated") updated += 1;
  };
  const cutoff = now - env.MJ_TASK_TIMEOUT_SECONDS * 1000;
  const byChannel = new Map<number, MjRow[]>();
  for (const row of rows) {
    if (!row.mj_id) count(await applyMjState(row, failure("任务 ID 为空")));
    else if (row.submit_time > 0 && row.submit_time < cutoff)
      count(await applyMjState(row, failure(timeoutReason(env.MJ_TASK_TIMEOUT_SECONDS))));
    else byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
  }
  const db = await getDb();
  const channelIds = [...byChannel.keys()];
  const channels = channelIds.length
    ? await db.selectFrom("channels").selectAll().where("id", "in", channelIds).execute()
    : [];
  const known = new Map<number, Channel>(channels.map((c) => [c.id, c]));
  const errors: string[] = [];
  for (const [channelId, tasks] of byChannel) {
    const channel = known.get(channelId);
    if (!channel) {
      for (const row of tasks) count(await applyMjState(row, failure("渠道已不存在")));
      continue;
    }
    for (let i = 0; i < tasks.length; i += BATCH) {
      const batch = tasks.slice(i, i + BATCH);
      try {
        const reply = await callTaskUpstream(channel, {
          method: "POST",
          path: "/mj/task/list-by-condition",
          body: JSON.stringify({ ids: batch.map((r) => r.mj_id) }),
          auth: "mj",
          timeoutMs: 15_000,
        });
        const list = reply.status === 200 ? parseJsonBody(reply.body) : undefined;
        if (!Array.isArray(list)) {
          errors.push(`channel #${channelId}: HTTP ${reply.status}`);
          continue;
        }
        const reported = new Map(
          list
            .map(readReportedMjTask)
            .filter((t) => t !== undefined)
            .map((t) => [t.id, t]),
        );
        for (const row of batch) {
          const task = reported.get(row.mj_id);
          if (task) count(await applyMjState(row, merged(row, task)));
        }
      } catch (error) {
        // The channel's tasks wait for the next pass (or their timeout).
        errors.push(`channel #${channelId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return `drawing tasks: ${rows.length} unfinished, ${updated} updated, ${refunded} failed and refunded${errors.length ? `; ${errors.join("; ")}` : ""}`;
}
