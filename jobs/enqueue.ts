import { isRedisEnabled } from "~/utils/redis.server";
import { enqueueBullJob } from "./bullmq";
import { runInProcess } from "./in-process";

/** Starts an on-demand job: on a BullMQ worker when Redis is configured, else in this process. */
export async function enqueueJob(name: string): Promise<void> {
  if (isRedisEnabled()) await enqueueBullJob(name);
  else runInProcess(name);
}
