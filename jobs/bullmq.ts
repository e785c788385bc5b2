import { Queue, Worker } from "bullmq";
import { createRedisConnection } from "~/utils/redis.server";
import { JOB_DEFINITIONS, findJob } from "./definitions";

export const MAINTENANCE_QUEUE = "maintenance";

/**
 * Scaled mode: one job scheduler per recurring job (upserted, so every worker may start them
 * without duplicates) and a worker that runs whatever the queue hands it.
 */
export async function startBullWorker(): Promise<{ close: () => Promise<void> }> {
  const queue = new Queue(MAINTENANCE_QUEUE, { connection: createRedisConnection() });
  for (const job of JOB_DEFINITIONS) {
    if (!job.everyMs) continue;
    await queue.upsertJobScheduler(job.name, { every: job.everyMs }, {
      name: job.name,
      data: {},
      opts: { attempts: job.attempts, backoff: { type: "exponential", delay: 5_000 }, removeOnComplete: 100, removeOnFail: 500 },
    });
  }
  const worker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      const definition = findJob(job.name);
      if (!definition) throw new Error(`unknown job ${job.name}`);
      return definition.run();
    },
    { connection: createRedisConnection(), concurrency: 2 },
  );
  worker.on("failed", (job, error) => console.error(`[worker] ${job?.name ?? "?"} failed: ${error.message}`));
  return {
    close: async () => {
      await worker.close();
      await queue.close();
    },
  };
}

let producer: Queue | undefined;

/** Hands an on-demand job to whichever worker picks it up first. */
export async function enqueueBullJob(name: string): Promise<void> {
  producer ??= new Queue(MAINTENANCE_QUEUE, { connection: createRedisConnection() });
  const definition = findJob(name);
  await producer.add(name, {}, { attempts: definition?.attempts ?? 1, removeOnComplete: 100, removeOnFail: 500 });
}

export async function closeBullProducer(): Promise<void> {
  await producer?.close();
  producer = undefined;
}
