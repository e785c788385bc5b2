/**
 * The Midjourney-proxy protocol's pure parts: which action a submit is, the
 * task object as the proxy reports it (read leniently: it is untrusted), and the task object the
 * gateway answers with.
 */
import type { MjTaskState } from "~/domain/tasks/midjourney.server";

export const MJ_SUBMIT_ROUTES = [
  "imagine",
  "change",
  "simple-change",
  "describe",
  "blend",
  "modal",
  "shorten",
  "action",
  "upload-discord-images",
] as const;

export type MjSubmitKind = { action: string; originTaskId?: string } | { error: string };

// NUL characters cannot be stored (PostgreSQL text): dropped wherever text is read from a body.
function text(value: unknown): string {
  return typeof value === "string"
    ? value.replaceAll("\u0000", "")
    : typeof value === "number" && Number.isFinite(value)
      ? String(value)
      : "";
}

function time(value: unknown): number {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

const CHANGE_ACTIONS = new Set(["UPSCALE", "VARIATION", "REROLL"]);

/** `MJ::JOB::<op>::<index>::<hash>` and the plus proxy's non-JOB ids, as the reference reads them. */
export function actionOfCustomId(customId: string): string | undefined {
  if (customId.startsWith("MJ::CustomZoom::")) return "CUSTOM_ZOOM";
  if (customId.startsWith("MJ::Inpaint::")) return "INPAINT";
  if (customId.startsWith("MJ::Outpaint::")) return "ZOOM";
  const op = /^MJ::JOB::([a-z_0-9]+)::/i.exec(customId)?.[1]?.toLowerCase();
  if (!op) return undefined;
  if (op.startsWith("pan_")) return "PAN";
  if (op === "low_variation") return "LOW_VARIATION";
  if (op === "high_variation") return "HIGH_VARIATION";
  if (op.startsWith("upsample")) return "UPSCALE";
  if (op.startsWith("variation")) return "VARIATION";
  if (op === "reroll") return "REROLL";
  return undefined;
}

/** The action a submit asks for, and the earlier task it acts on (change, action, modal). */
export function mjSubmitKind(route: string, body: Record<string, unknown>): MjSubmitKind {
  const taskId = text(body.taskId).trim();
  switch (route) {
    case "imagine":
      return text(body.prompt).trim() ? { action: "IMAGINE" } : { error: "prompt_is_required" };
    case "describe":
      return { action: "DESCRIBE" };
    case "blend":
      return { action: "BLEND" };
    case "shorten":
      return { action: "SHORTEN" };
    case "upload-discord-images":
      return { action: "UPLOAD" };
    case "insight-face/swap":
      return { action: "SWAP_FACE" };
    case "modal":
      return taskId ? { action: "MODAL", originTaskId: taskId } : { error: "task_id_is_required" };
    case "change": {
      const action = text(body.action).toUpperCase();
      if (!CHANGE_ACTIONS.has(action)) return { error: "action_is_invalid" };
      return taskId ? { action, originTaskId: taskId } : { error: "task_id_is_required" };
    }
    case "simple-change": {
      const match = /^\s*(\S+)\s+([UV])([1-4])\s*$|^\s*(\S+)\s+(R)\s*$/i.exec(text(body.content));
      if (!match) return { error: "content_is_invalid" };
      const id = match[1] ?? match[4]!;
      const letter = (match[2] ?? match[5]!).toUpperCase();
      return { action: letter === "U" ? "UPSCALE" : letter === "V" ? "VARIATION" : "REROLL", originTaskId: id };
    }
    case "action": {
      const action = actionOfCustomId(text(body.customId));
      if (!action) return { error: "custom_id_is_invalid" };
      return taskId ? { action, originTaskId: taskId } : { error: "task_id_is_required" };
    }
    default:
      return { error: "unknown_action" };
  }
}

/** `--fast`, `--relax` and `--turbo` out of a prompt (MjModeClearEnabled). */
export function clearModeFlags(prompt: string): string {
  return prompt.replace(/\s*--(?:fast|relax|turbo)\b/gi, "").trim();
}

export type ReportedMjTask = MjTaskState & { id: string; action: string };

/** A task object from the proxy, each field checked; undefined without an id. */
export function readReportedMjTask(value: unknown): ReportedMjTask | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const id = text(o.id).trim();
  if (!id) return undefined;
  const json = (v: unknown) => (v === undefined || v === null ? "" : JSON.stringify(v).slice(0, 20_000));
  return {
    id,
    action: text(o.action).toUpperCase().slice(0, 40),
    status: text(o.status).toUpperCase().slice(0, 20) || "SUBMITTED",
    progress: text(o.progress).slice(0, 30),
    imageUrl: text(o.imageUrl),
    failReason: text(o.failReason),
    prompt: text(o.prompt) || undefined,
    promptEn: text(o.promptEn),
    description: text(o.description),
    state: text(o.state),
    submitTime: time(o.submitTime),
    startTime: time(o.startTime),
    finishTime: time(o.finishTime),
    buttons: Array.isArray(o.buttons) ? json(o.buttons) : "",
    properties: typeof o.properties === "object" ? json(o.properties) : "",
  };
}

function parsedOr<T>(raw: string, fallback: T): unknown {
  if (!raw) return fallback;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return fallback;
  }
}

/** The task object the gateway answers fetch and list-by-condition with (the proxy's shape). */
export function mjTaskObject(
  row: {
    mj_id: string;
    action: string;
    status: string;
    progress: string;
    prompt: string;
    prompt_en: string;
    description: string;
    state: string;
    submit_time: number;
    start_time: number;
    finish_time: number;
    fail_reason: string;
    buttons: string;
    properties: string;
  },
  imageUrl: string,
) {
  return {
    id: row.mj_id,
    action: row.action,
    status: row.status,
    progress: row.progress,
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl,
    failReason: row.fail_reason,
    properties: parsedOr(row.properties, {}),
    buttons: parsedOr(row.buttons, []),
  };
}

/** A %-escaped path part (a task id), or "" when its escapes are broken or it holds NUL: such an id names no task. */
export function decodeTaskId(part: string): string {
  try {
    const decoded = decodeURIComponent(part);
    return decoded.includes("\u0000") ? "" : decoded.slice(0, 100);
  } catch {
    return "";
  }
}
