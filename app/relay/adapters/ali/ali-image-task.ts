import { pause, replyOf, sendAndRead } from "../shared/transport";
import type { TransportInit, UpstreamReply, UpstreamRequest } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";
import { fromWanxTask } from "./ali-convert";

/**
 * Wanx images are an asynchronous task: the submission answers a task id, the task is polled
 * until it succeeds or fails. Polling stops with the call's signal (the reply timeout) and after
 * MAX_POLLS at the latest; the client gets one OpenAI images reply either way.
 */
const MAX_POLLS = 120;
const FIRST_POLL_MS = 300;
const POLL_MS = 1_000;

export async function runWanxTask(submit: UpstreamRequest, base: string, init: TransportInit): Promise<UpstreamReply> {
  const submitted = await sendAndRead(submit, init);
  if (submitted.status !== 200 || !submitted.body) return submitted.reply;
  const taskId = asRecord(asRecord(parseJson(submitted.body)).output).task_id;
  if (typeof taskId !== "string" || !taskId)
    return replyOf(502, JSON.stringify({ code: "NoTaskId", message: "通义万相未返回任务 ID" }));
  const poll: UpstreamRequest = {
    url: `${base}/api/v1/tasks/${encodeURIComponent(taskId)}`,
    method: "GET",
    headers: { Authorization: submit.headers.Authorization ?? "" },
    body: "",
  };
  for (let attempt = 0; attempt < MAX_POLLS; attempt += 1) {
    await pause(attempt === 0 ? FIRST_POLL_MS : POLL_MS, init.signal);
    const polled = await sendAndRead(poll, init);
    if (polled.status !== 200 || !polled.body) return polled.reply;
    const output = asRecord(asRecord(parseJson(polled.body)).output);
    if (output.task_status === "SUCCEEDED") return replyOf(200, fromWanxTask(polled.body));
    if (output.task_status === "FAILED" || output.task_status === "UNKNOWN" || output.task_status === "CANCELED") {
      // The task's own code and message, under the status of a failed upstream.
      return replyOf(
        500,
        JSON.stringify({ code: output.code ?? "TaskFailed", message: output.message ?? `任务 ${taskId} 失败` }),
      );
    }
  }
  return replyOf(504, JSON.stringify({ code: "TaskTimeout", message: `任务 ${taskId} 未在限定时间内完成` }));
}
