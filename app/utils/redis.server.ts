import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import { env } from "./env.server";

/**
 * Cross-node notifications (option saved, channel disabled, token edited). With REDIS_URL they
 * travel over Redis pub/sub; without it they stay in this process.
 */
type Handler = (message: string) => void;

const local = new EventEmitter();
local.setMaxListeners(100);
let publisher: Redis | undefined;
let subscriber: Redis | undefined;
const handlers = new Map<string, Set<Handler>>();
const PREFIX = "switchyard:";

export function isRedisEnabled(): boolean {
  return Boolean(env.REDIS_URL);
}

export function createRedisConnection(): Redis {
  if (!env.REDIS_URL) throw new Error("REDIS_URL is not set");
  // BullMQ requires maxRetriesPerRequest: null on connections it uses for blocking commands.
  return new Redis(env.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
}

let sharedClient: Redis | undefined;
export function getRedis(): Redis {
  sharedClient ??= createRedisConnection();
  return sharedClient;
}

// Messages carry their origin so a node applies its own change at once (synchronously, before
// the write's caller returns) and skips the echo Redis delivers back to it a moment later.
const ORIGIN = randomUUID();

export async function publish(channel: string, message: string): Promise<void> {
  if (!env.REDIS_URL) {
    local.emit(channel, message);
    return;
  }
  for (const h of handlers.get(channel) ?? []) h(message);
  publisher ??= createRedisConnection();
  await publisher.publish(PREFIX + channel, `${ORIGIN}|${message}`);
}

export async function subscribe(channel: string, handler: Handler): Promise<void> {
  if (!env.REDIS_URL) {
    local.on(channel, handler);
    return;
  }
  if (!subscriber) {
    subscriber = createRedisConnection();
    subscriber.on("message", (full: string, raw: string) => {
      const split = raw.indexOf("|");
      if (raw.slice(0, split) === ORIGIN) return;
      const message = raw.slice(split + 1);
      for (const h of handlers.get(full.slice(PREFIX.length)) ?? []) h(message);
    });
  }
  let set = handlers.get(channel);
  if (!set) {
    set = new Set();
    handlers.set(channel, set);
    await subscriber.subscribe(PREFIX + channel);
  }
  set.add(handler);
}

export async function closeRedis(): Promise<void> {
  // BullMQ and ioredis never quit connections on their own (stack-notes P11b).
  await Promise.all([publisher?.quit(), subscriber?.quit(), sharedClient?.quit()].map((p) => p?.catch(() => undefined)));
  publisher = subscriber = sharedClient = undefined;
  handlers.clear();
}
