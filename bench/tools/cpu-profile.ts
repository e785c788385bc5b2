import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A V8 CPU profile as `node --cpu-prof` writes it. */
export type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  /** Samples per source line of the function's own code (V8 records them with --cpu-prof). */
  positionTicks?: { line: number; ticks: number }[];
};
export type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export type LoadedProfile = {
  file: string;
  profile: Profile;
  byId: Map<number, ProfileNode>;
  /** Each node's caller. */
  parent: Map<number, number>;
};

/** The newest .cpuprofile in DIR (default /tmp/prof), as bench/tools/prof.ts leaves it with PROF=1. */
export function newestProfile(dir = process.env.DIR ?? "/tmp/prof"): LoadedProfile {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return { file, profile, byId: new Map(profile.nodes.map((n) => [n.id, n])), parent };
}
