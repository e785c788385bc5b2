import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase, migrateToLatest } from "../../db/connect";
import { SCHEMA_COLUMNS } from "../../db/schema-columns";
import { migratedColumns, type MigratedColumn } from "../support/migrated-columns";

/**
 * `db/schema.ts` is written by hand; `db/schema-columns.ts` lists the same tables and columns
 * and the typecheck ties the two. This holds that list to what the migrations really create, so
 * a migration without its types (or types without their migration) fails here.
 */
function declaredColumns(): MigratedColumn[] {
  return Object.entries(SCHEMA_COLUMNS).flatMap(([table, columns]) =>
    Object.entries(columns as Record<string, string>).map(([column, spec]) => ({
      table,
      column,
      type: spec.replace(/\?$/, ""),
      nullable: spec.endsWith("?"),
    })),
  );
}

const byName = (a: MigratedColumn, b: MigratedColumn) =>
  `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);

async function columnsOfFreshDatabase(url?: string): Promise<MigratedColumn[]> {
  const { db, close } = await connectDatabase({ url, pgliteDir: "memory://", poolSize: 2 });
  try {
    await migrateToLatest(db);
    return await migratedColumns(db);
  } finally {
    await close();
  }
}

describe("the schema types match the migrations", () => {
  it("on embedded PGlite: every table and column, with its type and nullability", async () => {
    const migrated = await columnsOfFreshDatabase();
    expect(migrated.length).toBeGreaterThan(100);
    expect(migrated.sort(byName)).toEqual(declaredColumns().sort(byName));
  });

  const serverUrl = process.env.DATABASE_URL;
  const scratch = `schema_check_${process.pid}_${Date.now()}`;
  const admin = serverUrl ? new pg.Client({ connectionString: serverUrl }) : undefined;
  afterAll(async () => {
    if (!admin) return;
    await admin.query(`drop database if exists ${scratch}`).catch(() => undefined);
    await admin.end();
  });

  it.skipIf(!serverUrl)("on PostgreSQL: a fresh database migrated from nothing", async () => {
    await admin!.connect();
    await admin!.query(`create database ${scratch}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${scratch}`;
    const migrated = await columnsOfFreshDatabase(url.toString());
    expect(migrated.sort(byName)).toEqual(declaredColumns().sort(byName));
  });
});
