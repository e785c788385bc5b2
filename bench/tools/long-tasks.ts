import { newestProfile } from "./cpu-profile";

/**
 * The longest stretches a V8 CPU profile spent in one task without returning to the event loop:
 * runs of consecutive samples under the same entry function (the frame below the root), the
 * collector's samples inside a run counted with it. A run ends at an idle or program sample or
 * another entry. Prints each long run's entry, length, collector share and the functions that
 * took its time, to tell what holds the loop when a soak shows a stall. A long gap between two
 * samples (the sampler runs every millisecond) is time the thread was not running at all: the
 * machine's other processes, not the task.
 *
 *   PROF=1 C=50 SECONDS=60 npx tsx bench/tools/prof.ts && npx tsx bench/tools/long-tasks.ts
 */
const { file: newest, profile, byId, parent } = newestProfile();
const rootId = profile.nodes[0]!.id;

const name = (id: number) => {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  return `${functionName || "(anonymous)"}${url ? ` ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : ""}`;
};
/** The frame just below the root: the task's entry (or idle, program, collector). */
function entryOf(id: number): number {
  let at = id;
  for (let up = parent.get(at); up !== undefined && up !== rootId; up = parent.get(at)) at = up;
  return at;
}

type Run = { entry: number; startUs: number; us: number; gcUs: number; gapUs: number; self: Map<number, number> };
const runs: Run[] = [];
let current: Run | undefined;
let atUs = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  atUs += delta;
  const entry = entryOf(id);
  const entryName = byId.get(entry)!.callFrame.functionName;
  if (entryName === "(garbage collector)" && current) {
    current.us += delta;
    current.gcUs += delta;
    current.gapUs = Math.max(current.gapUs, delta);
    return;
  }
  if (entryName === "(idle)" || entryName === "(program)" || entryName === "(root)") {
    current = undefined;
    return;
  }
  if (!current || current.entry !== entry) {
    current = { entry, startUs: atUs, us: 0, gcUs: 0, gapUs: 0, self: new Map() };
    runs.push(current);
  }
  current.us += delta;
  current.gapUs = Math.max(current.gapUs, delta);
  current.self.set(id, (current.self.get(id) ?? 0) + delta);
});

const totalS = atUs / 1e6;
runs.sort((a, b) => b.us - a.us);
console.log(`${newest}: ${totalS.toFixed(1)} s, ${runs.length} runs; the longest:`);
for (const run of runs.slice(0, Number(process.env.TOP ?? 8))) {
  const top = [...run.self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([id, us]) => `${name(id)} ${(us / 1000).toFixed(1)}`)
    .join("; ");
  console.log(
    `- ${(run.us / 1000).toFixed(1)} ms at ${(run.startUs / 1e6).toFixed(2)} s in ${name(run.entry)} (collector ${(run.gcUs / 1000).toFixed(1)} ms, longest gap between samples ${(run.gapUs / 1000).toFixed(1)} ms): ${top}`,
  );
}
