import { readdirSync, readFileSync } from "node:fs";

/**
 * The fields of a /proc stat file (a process's or one thread's) after its name, numbered from its
 * state: [7] minor faults, [11] user and [12] system time in ticks of USER_HZ (100 on Linux).
 */
export function statFields(file: string): string[] {
  return readFileSync(file, "utf8").split(") ")[1]!.split(" ");
}

/** Ticks of /proc's stat files in milliseconds (USER_HZ is 100 on Linux). */
export const TICK_MS = 10;

/** CPU time (ms, user + system) and resident memory (MB) of a process, from /proc. */
export function cpuMs(pid: number): number {
  const fields = statFields(`/proc/${pid}/stat`);
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.replace(/\D+/g, "") ?? 0) / 1024;
}

/** The process and its children (the web processes of a WEB_CONCURRENCY primary). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    // A process that has just exited has no children file.
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time of the whole tree (a child that exits takes its time with it: read around steady runs). */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + safely(() => cpuMs(p)), 0);
}

export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + safely(() => rssMb(p)), 0);
}

function safely(read: () => number): number {
  try {
    return read();
  } catch {
    return 0;
  }
}

/**
 * CPU time of every PostgreSQL process on this machine (the server and its backends). On a
 * benchmark box the database shares the cores with the relays, so its work per request is part
 * of what the gateway costs there; read around a run that only the gateway's requests touch.
 */
export function postgresCpuMs(): number {
  let sum = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    sum += safely(() => (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres" ? cpuMs(pid) : 0));
  }
  return sum;
}
