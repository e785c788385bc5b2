// `npm start` must serve the code that is checked out: after a `git pull` the old bundle would
// keep running if the start only built when no bundle existed. A stamp of the source tree (a hash
// of every input's path and bytes) is written next to the build; a start whose stamp differs
// rebuilds first and says so in one line. `--write` (postbuild) records the stamp of a build.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const INPUTS = [
  "app",
  "server",
  "jobs",
  "db",
  "public",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "tsconfig.json",
];
const STAMP = "build/.source-stamp";
const ENTRIES = ["build/entry/server/index.mjs", "build/entry/server/import.mjs"];
// `npm run import` builds the same way before it runs; its lines say who is speaking.
const TAG = process.argv.includes("--for=import") ? "[import]" : "[start]";

function filesOf(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => filesOf(join(path, entry.name)));
}

function sourceStamp() {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(filesOf)) hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

const stamp = sourceStamp();
if (process.argv.includes("--write")) {
  mkdirSync("build", { recursive: true });
  writeFileSync(STAMP, stamp);
  process.exit(0);
}

const built = ENTRIES.every((entry) => existsSync(entry)) && existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp;
if (built) process.exit(0);
console.log(
  existsSync(ENTRIES[0])
    ? `${TAG} the sources changed since the last build: rebuilding…`
    : `${TAG} first start: building the console and server…`,
);
const started = Date.now();
// The build's own output is only shown when it fails: a start prints what a person needs.
const result = spawnSync("npm", ["run", "--silent", "build"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  console.error(`${TAG} the build failed: see the output above`);
  process.exit(result.status ?? 1);
}
console.log(`${TAG} built in ${Math.round((Date.now() - started) / 1000)} s`);
