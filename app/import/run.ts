import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { detectFork } from "./fork";
import { ImportReport } from "./report";
import { openSource } from "./source/open";
import { importSteps } from "./steps";
import type { Result } from "~/utils/result";
import type { ImportContext, ImportOptions, ImportStep, ProgressReporter, SourceDb } from "./types";

export type ImportResult = Result<ImportReport>;

/** Thrown by a step for a fault that stops the whole import (its transaction rolled back). */
export class ImportRefused extends Error {}

/**
 * The whole import against an opened, migrated target (the composition root opens it: the
 * gateway's own connection, so the domain writers the steps use see the same database).
 * A target with users that no earlier import wrote is refused before anything is read or written.
 */
export async function runImport(
  options: ImportOptions,
  target: Kysely<DB>,
  progress: ProgressReporter,
  steps: ImportStep[] = importSteps,
): Promise<ImportResult> {
  const refusal = await refusalOfTarget(target);
  if (refusal) return { ok: false, message: refusal };

  let source: SourceDb | undefined;
  let logSource: SourceDb | undefined;
  try {
    source = await openSource(options.source);
    logSource = options.logSource ? await openSource(options.logSource) : source;
    const fork = await detectFork(source);
    const report = new ImportReport(options.apply);
    report.header.push(
      `Source: ${source.label} (${source.dialect})${logSource !== source ? `, logs from ${logSource.label}` : ""}`,
      `Found: ${fork.fork} ${fork.version}${fork.evidence.length ? ` — by ${fork.evidence.join(", ")}` : ""}`,
      options.apply ? "Mode: --apply (writing)" : "Mode: dry run (nothing is written)",
    );
    const ctx: ImportContext = { source, logSource, target, apply: options.apply, fork, options, report, progress };
    let runId: number | undefined;
    if (options.apply) {
      const run = await target
        .insertInto("import_runs")
        .values({ source: source.label, fork: `${fork.fork} ${fork.version}`, finished_at: null })
        .returning("id")
        .executeTakeFirstOrThrow();
      runId = run.id;
    }
    for (const step of steps) await step.run(ctx);
    if (runId !== undefined)
      await target.updateTable("import_runs").set({ finished_at: new Date() }).where("id", "=", runId).execute();
    return { ok: true, value: report };
  } catch (error) {
    if (error instanceof ImportRefused) return { ok: false, message: error.message };
    throw error;
  } finally {
    if (logSource && logSource !== source) await logSource.close();
    await source?.close();
  }
}

/** Users that an earlier import did not bring mean the deployment is in use: merging into it is refused. */
async function refusalOfTarget(target: Kysely<DB>): Promise<string | undefined> {
  const user = await target.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (!user) return undefined;
  const earlier = await target.selectFrom("import_runs").select("id").limit(1).executeTakeFirst();
  if (earlier) return undefined;
  return (
    "The target database already has users: the import only fills a new deployment. Run it before the first `npm start` " +
    "(against an empty DATABASE_URL, or a DATA_DIR with no database yet). Nothing was changed."
  );
}
