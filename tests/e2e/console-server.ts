import { spawn } from "node:child_process";
import { once } from "node:events";
import { onFreePort, PORT_TAKEN } from "../support/server";

/**
 * One console server per Playwright worker: tests/support/e2e-server.ts (the production server
 * on a fresh database, with its GitHub mock) on a free loopback port. Two workers then drive two
 * servers side by side, each seeing only the flows its own worker ran, as one worker did before.
 */
export type ConsoleServer = { url: string; stop: () => Promise<void> };

const STARTUP_BOUND_MS = 120_000;

export function startConsoleServer(): Promise<ConsoleServer> {
  return onFreePort(startOn);
}

async function startOn(port: number): Promise<ConsoleServer | typeof PORT_TAKEN> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/e2e-server.ts"], {
    env: { ...process.env, E2E_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    // The last part is what says why a start failed.
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const deadline = Date.now() + STARTUP_BOUND_MS;
  for (;;) {
    if (child.exitCode !== null) {
      // Its last words (why it stopped) arrive with the pipe's close.
      await Promise.race([once(child.stderr, "close"), new Promise((resolve) => setTimeout(resolve, 1_000))]);
      if (output.includes("EADDRINUSE")) return PORT_TAKEN;
      throw new Error(`the console server exited at start:\n${output}`);
    }
    const up = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the console server did not answer /healthz within ${STARTUP_BOUND_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      // SIGTERM lets it drop its scratch database; a server that hangs is killed after a bound.
      child.kill("SIGTERM");
      const killed = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killed);
    },
  };
}
