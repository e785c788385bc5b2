import { isRedisEnabled } from "~/utils/redis.server";
import { runInProcess } from "./in-process";

/** Starts an on-demand job: on a BullMQ worker when Redis is configured, else in this process. */
export async function enqueueJob(name: string): Promise<void> {
  // BullMQ is loaded only where there is Redis to queue on.
  if (isRedisEnabled()) await (await import("./bullmq")).enqueueBullJob(name);
  else runInProcess(name);
}
