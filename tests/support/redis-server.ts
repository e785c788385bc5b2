import { spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";
import { onFreePort, PORT_TAKEN } from "./server";

/**
 * A private, throw-away redis-server on a loopback port, for tests that stop Redis (the shared
 * one on 6379 is used by everyone) or need a Redis no other test server talks to.
 */
export type TestRedis = {
  port: number;
  url: (db?: number) => string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
};

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function startTestRedis(): Promise<TestRedis> {
  let port = 0;
  let child: ChildProcess | undefined;
  /** Starts redis-server on `port`; false when it exited instead (the port was taken meanwhile). */
  const launch = async (): Promise<boolean> => {
    const spawned = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    child = spawned;
    for (let i = 0; i < 100; i += 1) {
      // An exited server answers nothing of its own: whatever took the port would.
      if (spawned.exitCode !== null || spawned.signalCode !== null) return false;
      if (await answers(port)) {
        // Another listener on a taken port answers at once, and this server then exits on its bind.
        await new Promise((r) => setTimeout(r, 100));
        return spawned.exitCode === null && spawned.signalCode === null;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return spawned.exitCode === null;
  };
  const start = async () => {
    await launch();
  };
  /** SIGKILL, as an outage: no goodbye to the clients. */
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once("exit", r));
    running.kill("SIGKILL");
    await exited;
  };
  await onFreePort(async (free) => {
    port = free;
    return (await launch()) ? port : PORT_TAKEN;
  });
  return { port, url: (db = 0) => `redis://127.0.0.1:${port}/${db}`, stop, start };
}

/**
 * Opens a module instance's Redis connections as boot does and waits until they answer: the
 * command connections have no offline queue, so a command sent before that would be counted in
 * process instead, and a test meant for Redis would not reach it.
 */
export async function connectedRedis(connection: typeof import("~/utils/redis.server")): Promise<void> {
  connection.connectRedis();
  for (const client of [connection.getRedis(), connection.getPipelinedRedis()]) {
    if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  }
}
