import { createHash, randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type { Redis, RedisOptions } from "ioredis";
import { env } from "./env.server";

/**
 * Cross-node notifications (option saved, channel disabled, token edited). With REDIS_URL they
 * travel over Redis pub/sub; without it they stay in this process.
 *
 * Redis is a helper, never a dependency a request waits on for long: a publish waits until
 * every listener has applied the change (so a token disabled on one node is refused by all of
 * them once the operator is answered), at most CONFIRM_WAIT_MS; with Redis away it fails at
 * once (no offline queue), a missed message is healed when the subscriber reconnects
 * (onResubscribed: caches reload), and boot never waits for Redis.
 */
type Handler = (message: string) => void;

const local = new EventEmitter();
local.setMaxListeners(100);
let publisher: Redis | undefined;
let subscriber: Redis | undefined;
const handlers = new Map<string, Set<Handler>>();
const resubscribed = new Set<() => void>();

export function isRedisEnabled(): boolean {
  return Boolean(env.REDIS_URL);
}

/** The Redis database number of REDIS_URL (`redis://host/1`, or `?db=1`); 0 by default. */
function redisDbNumber(url: string): number {
  try {
    const parsed = new URL(url);
    const fromPath = parsed.pathname.replace(/^\//, "");
    const n = Number(fromPath || parsed.searchParams.get("db") || 0);
    return Number.isInteger(n) ? n : 0;
  } catch {
    return 0;
  }
}

/** Which database this deployment's data lives in, without secrets. */
function databaseIdentity(): string {
  if (!env.DATABASE_URL) return `pglite:${resolve(env.PGLITE_DIR ?? join(env.DATA_DIR, "pglite"))}`;
  try {
    const url = new URL(env.DATABASE_URL);
    url.password = "";
    return url.toString();
  } catch {
    return env.DATABASE_URL;
  }
}

/**
 * Names this deployment on a shared Redis server. Pub/sub ignores the database number, so two
 * deployments on `redis://…/0` and `redis://…/1` heard each other's changes (one's
 * RegisterEnabled=false closed the other's registration): every channel, key and queue carries
 * this key. REDIS_PREFIX sets it; else it is derived from the database and the Redis db number,
 * which every node of one deployment shares.
 */
export function deploymentKey(): string {
  if (env.REDIS_PREFIX) return env.REDIS_PREFIX;
  const identity = `${databaseIdentity()}|redis-db:${redisDbNumber(env.REDIS_URL ?? "")}`;
  return createHash("sha256").update(identity).digest("hex").slice(0, 12);
}

/** The prefix of every Redis name this deployment uses: `switchyard:<key>:`. */
export function redisNamespace(): string {
  return `switchyard:${deploymentKey()}:`;
}

/** Said once per outage per connection, not once per reconnect attempt. */
function reportOutages(client: Redis, role: string): Redis {
  let down = false;
  client.on("error", (error: Error) => {
    if (down) return;
    down = true;
    console.error(`[redis] ${role} connection lost (${error.message}); retrying in the background`);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    console.log(`[redis] ${role} connection back`);
  });
  return client;
}

/** ioredis is loaded at the first connection: a node without REDIS_URL never loads it (~2 MB of heap). */
let RedisClient: typeof Redis | undefined;

function connect(role: string, options: RedisOptions): Redis {
  if (!env.REDIS_URL) throw new Error("REDIS_URL is not set");
  RedisClient ??= (createRequire(import.meta.url)("ioredis") as { Redis: typeof Redis }).Redis;
  // Reconnect forever, at most every 2 s.
  const retryStrategy = (times: number) => Math.min(2_000, 100 * times);
  return reportOutages(new RedisClient(env.REDIS_URL, { retryStrategy, ...options }), role);
}

/** For BullMQ, which requires maxRetriesPerRequest: null on connections it blocks on. */
export function createRedisConnection(role = "queue"): Redis {
  return connect(role, { maxRetriesPerRequest: null });
}

let sharedClient: Redis | undefined;
/**
 * Short commands (rate-limit counters, progress, codes): failing at once while Redis is away
 * (no offline queue) and within a second when it hangs, so callers can fall back.
 */
export function getRedis(): Redis {
  sharedClient ??= connect("command", { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 });
  return sharedClient;
}

let pipelinedClient: Redis | undefined;
/**
 * Like getRedis, with the commands issued in one turn of the event loop sent as one write (the
 * relay's limit counters: many calls in flight each send one script; batched, each costs a
 * fraction of the CPU of its own round trip).
 */
export function getPipelinedRedis(): Redis {
  pipelinedClient ??= connect("limits", {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    enableAutoPipelining: true,
  });
  return pipelinedClient;
}

/** Whether the command connection is up right now. */
export function redisStatus(): "off" | "ok" | "degraded" {
  if (!isRedisEnabled()) return "off";
  return getRedis().status === "ready" ? "ok" : "degraded";
}

// Messages carry their origin so a node applies its own change at once (synchronously, before
// the write's caller returns) and skips the echo Redis delivers back to it a moment later. The
// origin is `<node>:<sequence>`: every listener, the sender's own included, confirms a message
// on the sender's confirmation channel once applied. (A message from a node that predates the
// sequence has none and is applied without a confirmation.)
const ORIGIN = randomUUID();
const CONFIRMATIONS = `confirm:${ORIGIN}`;

/** How long a publish waits for the listeners' confirmations before it returns anyway. */
export const CONFIRM_WAIT_MS = 1_000;
let sequence = 0;
const awaiting = new Map<number, { confirmed: number; expected: number; done: () => void }>();

function confirmed(seq: number): void {
  const entry = awaiting.get(seq);
  if (!entry) return;
  entry.confirmed += 1;
  if (entry.confirmed >= entry.expected) entry.done();
}

function ensurePublisher(): Redis {
  publisher ??= connect("publish", { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 });
  return publisher;
}

/**
 * Opens the connections at boot (without waiting for them): a connection without an offline
 * queue refuses commands until it is up, so one opened by the first publish lost that publish.
 */
export function connectRedis(): void {
  if (!isRedisEnabled()) return;
  getRedis();
  getPipelinedRedis();
  ensurePublisher();
  ensureSubscriber();
}

/**
 * Applies the change on this node at once, tells the others and returns once each listener has
 * confirmed it (at most CONFIRM_WAIT_MS). Other nodes that miss it (Redis away) reload their
 * caches when their subscriber reconnects.
 */
export async function publish(channel: string, message: string): Promise<void> {
  if (!env.REDIS_URL) {
    local.emit(channel, message);
    return;
  }
  for (const h of handlers.get(channel) ?? []) h(message);
  const seq = ++sequence;
  let timer: NodeJS.Timeout | undefined;
  // Registered before the publish: a fast listener's confirmation can come before its reply.
  const allConfirmed = new Promise<void>((done) => {
    awaiting.set(seq, { confirmed: 0, expected: Infinity, done });
    timer = setTimeout(done, CONFIRM_WAIT_MS);
  });
  try {
    // PUBLISH answers how many listeners received it, this node's own subscriber included.
    const listeners = await ensurePublisher().publish(redisNamespace() + channel, `${ORIGIN}:${seq}|${message}`);
    const entry = awaiting.get(seq)!;
    entry.expected = listeners;
    if (entry.confirmed >= listeners) entry.done();
    await allConfirmed;
    if (entry.confirmed < listeners)
      console.warn(
        `[redis] ${listeners - entry.confirmed} listener(s) did not confirm a change on ${channel} within ${CONFIRM_WAIT_MS} ms`,
      );
  } catch {
    // Redis away: nothing to wait for.
  } finally {
    clearTimeout(timer);
    awaiting.delete(seq);
  }
}

function ensureSubscriber(): Redis {
  if (subscriber) return subscriber;
  const namespace = redisNamespace();
  const client = connect("subscribe", { maxRetriesPerRequest: null });
  client.on("message", (full: string, raw: string) => {
    if (!full.startsWith(namespace)) return;
    const name = full.slice(namespace.length);
    if (name === CONFIRMATIONS) return confirmed(Number(raw));
    const split = raw.indexOf("|");
    const [origin, seq] = raw.slice(0, split).split(":");
    if (origin !== ORIGIN) for (const h of handlers.get(name) ?? []) h(raw.slice(split + 1));
    if (seq) {
      ensurePublisher()
        .publish(`${namespace}confirm:${origin}`, seq)
        .catch(() => undefined);
    }
  });
  client.subscribe(namespace + CONFIRMATIONS).catch(() => undefined);
  // ioredis resubscribes by itself after a reconnect; what was published meanwhile is lost.
  let connectedOnce = false;
  client.on("ready", () => {
    if (connectedOnce) for (const resync of resubscribed) resync();
    connectedOnce = true;
  });
  subscriber = client;
  return client;
}

/** Listens for a change; never waits for Redis (the subscription is sent when it is reachable). */
export async function subscribe(channel: string, handler: Handler): Promise<void> {
  if (!env.REDIS_URL) {
    local.on(channel, handler);
    return;
  }
  const client = ensureSubscriber();
  let set = handlers.get(channel);
  if (!set) {
    set = new Set();
    handlers.set(channel, set);
    client.subscribe(redisNamespace() + channel).catch(() => undefined);
  }
  set.add(handler);
}

/**
 * Runs `resync` whenever the subscriber comes back after losing Redis: changes published while
 * it was away were missed, so a cache reloads (or drops) what it holds.
 */
export function onResubscribed(resync: () => void): void {
  resubscribed.add(resync);
}

export async function closeRedis(): Promise<void> {
  // BullMQ and ioredis never quit connections on their own (a process would not exit); quit waits for
  // a reply, so a dead server gets disconnect() instead.
  const close = (client: Redis | undefined) =>
    client?.status === "ready" ? client.quit().catch(() => client.disconnect()) : client?.disconnect();
  await Promise.all([close(publisher), close(subscriber), close(sharedClient), close(pipelinedClient)]);
  publisher = subscriber = sharedClient = pipelinedClient = undefined;
  handlers.clear();
}
