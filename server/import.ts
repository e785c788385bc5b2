// `npm run import -- <source> [--apply] …`: moves a new-api or one-api deployment into this
// deployment's database (decision 042). The composition root of the import: parses the command
// line, opens and migrates the target the way the server does (DATABASE_URL, or the embedded
// database under DATA_DIR; CRYPTO_SECRET seals the keys), runs the steps, prints the report.
import { parseImportArgs } from "../app/import/cli-args";
import { terminalProgress } from "../app/import/progress";
import { runImport } from "../app/import/run";
import { closeDatabase, getDb } from "../app/utils/db.server";

process.env.NODE_ENV ??= "production";

async function main(): Promise<number> {
  const parsed = parseImportArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(parsed.message);
    return 2;
  }
  try {
    const target = await getDb();
    const result = await runImport(parsed.value, target, terminalProgress());
    if (!result.ok) {
      console.error(`[import] ${result.message}`);
      return 1;
    }
    console.log(result.value.format());
    return 0;
  } catch (error) {
    console.error(`[import] failed: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.IMPORT_DEBUG) console.error(error);
    return 1;
  } finally {
    await closeDatabase();
  }
}

process.exitCode = await main();
