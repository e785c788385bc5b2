import { Queue, Worker } from "bullmq";
import { createRedisConnection, redisNamespace } from "~/utils/redis.server";
import { QUEUE_UNAVAILABLE_MESSAGE } from "~/relay/channel-test-all.server";
import { JOB_DEFINITIONS, findJob } from "./definitions";
import { runJob } from "./run";

export const MAINTENANCE_QUEUE = "maintenance";

/**
 * Queue keys live under this deployment's namespace: BullMQ's default `bull:` prefix made two
 * deployments on one Redis database share (and run) each other's jobs.
 */
const queuePrefix = () => `${redisNamespace()}bull`;

type Running = { close: () => Promise<void> };
let running: Running | undefined;

/**
 * Scaled mode: one job scheduler per recurring job (upserted, so every worker may start them
 * without duplicates) and a worker that runs whatever the queue hands it. Web processes start
 * it too (unless WORKERS=off), so a single `npm start` with Redis runs every job.
 *
 * Never waits for Redis: the worker and the schedulers start once it is reachable, so a node
 * boots (and serves) while Redis is down. Started once per process.
 */
export function startBullWorker(): Promise<Running> {
  if (running) return Promise.resolve(running);
  const queue = new Queue(MAINTENANCE_QUEUE, { connection: createRedisConnection(), prefix: queuePrefix() });
  queue.on("error", () => undefined); // reported once per outage by the connection itself
  let stopped = false;
  const upsertSchedulers = async (attempt = 0): Promise<void> => {
    try {
      for (const job of JOB_DEFINITIONS) {
        if (!job.everyMs) continue;
        await queue.upsertJobScheduler(
          job.name,
          { every: job.everyMs },
          {
            name: job.name,
            data: {},
            opts: {
              attempts: job.attempts,
              backoff: { type: "exponential", delay: 5_000 },
              removeOnComplete: 100,
              removeOnFail: 500,
            },
          },
        );
      }
    } catch (error) {
      if (stopped) return;
      if (attempt === 0)
        console.error(`[worker] could not set up the recurring jobs yet (${(error as Error).message}); retrying`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** attempt)).unref());
      if (!stopped) return upsertSchedulers(attempt + 1);
    }
  };
  // Queued while Redis is away: the commands wait in the connection's offline queue.
  void upsertSchedulers();
  const worker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      const definition = findJob(job.name);
      if (!definition) throw new Error(`unknown job ${job.name}`);
      return runJob(definition);
    },
    // 4: two long runs (test all, refresh balances) still leave room for the short housekeeping jobs.
    { connection: createRedisConnection("worker"), concurrency: 4, prefix: queuePrefix() },
  );
  worker.on("error", () => undefined);
  worker.on("failed", (job, error) => console.error(`[worker] ${job?.name ?? "?"} failed: ${error.message}`));
  console.log("[worker] processing background jobs");
  running = {
    close: async () => {
      stopped = true;
      running = undefined;
      await worker.close();
      await queue.close();
    },
  };
  return Promise.resolve(running);
}

/** Closing waits for Redis to acknowledge; a shutdown during an outage does not wait for that. */
function bounded(work: Promise<unknown> | undefined, ms = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    Promise.resolve(work).then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}

export async function stopBullWorker(): Promise<void> {
  await bounded(running?.close());
}

let producer: Queue | undefined;
const ENQUEUE_TIMEOUT_MS = 3_000;

/** Hands an on-demand job to whichever worker picks it up first; fails (bounded) while Redis is away. */
export async function enqueueBullJob(name: string): Promise<void> {
  if (!producer) {
    producer = new Queue(MAINTENANCE_QUEUE, { connection: createRedisConnection("producer"), prefix: queuePrefix() });
    producer.on("error", () => undefined);
  }
  const definition = findJob(name);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(QUEUE_UNAVAILABLE_MESSAGE)), ENQUEUE_TIMEOUT_MS);
  });
  try {
    await Promise.race([
      producer.add(name, {}, { attempts: definition?.attempts ?? 1, removeOnComplete: 100, removeOnFail: 500 }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function closeBullProducer(): Promise<void> {
  await bounded(producer?.close());
  producer = undefined;
}
