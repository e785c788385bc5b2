import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import packageJson from "../../package.json" with { type: "json" };

/** The V8 flags `npm start` runs with (package.json config.node_flags), so tests and benchmarks measure the same process. */
const productionNodeFlags = packageJson.config.node_flags.split(" ").filter(Boolean);

/**
 * Starts the real production server (server/index.ts over the built app) on a free loopback
 * port, against a fresh PostgreSQL database or a fresh PGlite directory.
 */
export type StartedServer = {
  baseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  pid: number;
  /** SIGKILL: the process dies mid-request, as in a crash. */
  crash: () => Promise<void>;
  stop: () => Promise<void>;
  output: () => string;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** What a start returns to onFreePort when another process took its port first. */
export const PORT_TAKEN = Symbol("port taken");

/**
 * Starts something on a port freePort() found free. That port can be taken again before the
 * process binds it (another shard's server, any outgoing connection's ephemeral port), so a start
 * that returns PORT_TAKEN is tried again on another port, up to four times; any other failure is
 * the start's own to throw.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T | typeof PORT_TAKEN>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const started = await start(port);
    if (started !== PORT_TAKEN) return started;
    if (attempt >= 4) throw new Error(`four free ports in a row were taken before the bind (last ${port})`);
  }
}

/** A new empty database on the server DATABASE_URL points at; dropped again by the returned function. */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `switchyard_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export type ServerStorage = { dataDir: string; databaseUrl?: string };

/**
 * `storage` reuses an earlier server's data directory and database (a restart); the caller then
 * owns their cleanup. Without it the server gets fresh ones, removed by stop().
 */
export async function startServer(options: {
  kind: "postgres" | "pglite";
  env?: Record<string, string>;
  storage?: ServerStorage;
  nodeArgs?: string[];
  cwd?: string;
  /** With Redis, also start an `npm run worker` process (default); web processes run workers too unless WORKERS=off. */
  worker?: boolean;
}): Promise<StartedServer> {
  const dataDir = options.storage?.dataDir ?? mkdtempSync(join(tmpdir(), "switchyard-test-"));
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  if (options.storage?.databaseUrl) scratch = { url: options.storage.databaseUrl, drop: async () => undefined };
  else if (options.kind === "postgres") {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error("DATABASE_URL is required for the postgres test server");
    scratch = await createScratchDatabase(adminUrl);
  }
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? "",
    REDIS_URL: options.kind === "postgres" ? (process.env.REDIS_URL ?? "") : "",
    INSECURE_COOKIES: "1",
    TRUST_PROXY: "1",
    // One web process unless a test asks for more: `pid` is then the process that serves.
    WEB_CONCURRENCY: "1",
    // The suite registers and signs in hundreds of users: at the default cost the hashing was a
    // sixth of its CPU (decision 047). A test about the hash's time asks for the default back.
    PASSWORD_HASH_COST: "4",
  };
  let log = "";
  const { child, env, baseUrl } = await onFreePort(async (port) => {
    const env: NodeJS.ProcessEnv = { ...baseEnv, PORT: String(port), ...options.env };
    log = "";
    const child = spawn(
      process.execPath,
      [...productionNodeFlags, ...(options.nodeArgs ?? []), "build/entry/server/index.mjs"],
      { env, stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd },
    );
    child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    const outcome = await waitUntilReady(child, baseUrl);
    if (outcome === "ready") return { child, env, baseUrl };
    // A port the test asked for is the test's to keep.
    if (log.includes("EADDRINUSE") && options.env?.PORT === undefined) return PORT_TAKEN;
    throw new Error(`server ${outcome}:\n${log}`);
  });
  // Scaled mode is a web process plus workers: background jobs run on a real BullMQ worker.
  let worker: ChildProcess | undefined;
  if (env.REDIS_URL && options.worker !== false) {
    worker = spawn(process.execPath, [...productionNodeFlags, "build/entry/jobs/worker.mjs"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      cwd: options.cwd,
    });
    worker.stdout?.on("data", (chunk: Buffer) => (log += `[worker] ${chunk.toString()}`));
    worker.stderr?.on("data", (chunk: Buffer) => (log += `[worker] ${chunk.toString()}`));
  }
  return {
    baseUrl,
    databaseUrl: scratch?.url,
    dataDir,
    pid: child.pid ?? 0,
    crash: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      worker?.kill("SIGKILL");
      await exited;
    },
    output: () => log,
    stop: async () => {
      if (worker && worker.exitCode === null && worker.signalCode === null) {
        const done = new Promise((r) => worker!.once("exit", r));
        worker.kill("SIGTERM");
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([done, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
        clearTimeout(timer);
        if (worker.exitCode === null) worker.kill("SIGKILL");
      }
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
        clearTimeout(timer);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      if (!options.storage) {
        await scratch?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Polls /healthz until the server answers, it exits, or 90 s pass. */
async function waitUntilReady(
  child: ChildProcess,
  baseUrl: string,
): Promise<"ready" | "exited early" | "did not become ready"> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      // Let the last of its stderr arrive before the caller reads why.
      if (child.stderr && !child.stderr.closed) {
        await Promise.race([once(child.stderr, "close"), new Promise((r) => setTimeout(r, 1_000))]);
      }
      return "exited early";
    }
    try {
      const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return "ready";
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      return "did not become ready";
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}
