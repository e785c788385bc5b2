import { z } from "zod";
import type { Result } from "~/utils/result";
import type { ImportOptions } from "./types";

export const USAGE =
  "usage: npm run import -- <source> [--apply] [--logs-since YYYY-MM-DD | --skip-logs] [--log-source <source>]\n" +
  "  <source>: a new-api / one-api SQLite file (one-api.db), mysql://user:pass@host:3306/db, or postgres://…";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "--logs-since wants a day as YYYY-MM-DD")
  .transform((text, ctx) => {
    const date = new Date(`${text}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
      ctx.addIssue({ code: "custom", message: `--logs-since ${text} is not a real day` });
      return z.NEVER;
    }
    return date;
  });

/** The command line, parsed at the edge: a clear message for every mistake, never a stack. */
export function parseImportArgs(argv: string[]): Result<ImportOptions> {
  const positional: string[] = [];
  let apply = false;
  let skipLogs = false;
  let logsSince: string | undefined;
  let logSource: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--apply") apply = true;
    else if (flag === "--skip-logs") skipLogs = true;
    else if (flag === "--logs-since") logsSince = value();
    else if (flag === "--log-source") logSource = value();
    else if (flag === "--help" || flag === "-h") return { ok: false, message: USAGE };
    else if (flag.startsWith("-")) return { ok: false, message: `unknown option ${flag}\n${USAGE}` };
    else positional.push(arg);
  }
  if (positional.length !== 1)
    return {
      ok: false,
      message: positional.length ? `one source only, got: ${positional.join(" ")}\n${USAGE}` : USAGE,
    };
  if (skipLogs && logsSince !== undefined)
    return { ok: false, message: "--skip-logs and --logs-since exclude each other" };
  if (logSource !== undefined && logSource.trim() === "") return { ok: false, message: "--log-source wants a source" };
  let since: Date | undefined;
  if (logsSince !== undefined) {
    const parsed = day.safeParse(logsSince);
    if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? "bad --logs-since" };
    since = parsed.data;
  }
  return { ok: true, value: { source: positional[0]!, apply, skipLogs, logsSince: since, logSource } };
}
