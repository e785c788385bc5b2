import { sql, type Kysely } from "kysely";

export type MigratedColumn = { table: string; column: string; type: string; nullable: boolean };

/**
 * The columns of every table the migrations made (partitions of `logs` and Kysely's own
 * bookkeeping left out), as PostgreSQL reports them: its type name and whether it takes NULL.
 */
export async function migratedColumns(db: Kysely<any>): Promise<MigratedColumn[]> {
  const result = await sql<{ table: string; column: string; type: string; nullable: boolean }>`
    select c.table_name as table, c.column_name as column, c.udt_name as type, (c.is_nullable = 'YES') as nullable
    from information_schema.columns c
    join pg_class t on t.relname = c.table_name and t.relnamespace = 'public'::regnamespace
    where c.table_schema = 'public' and t.relkind in ('r', 'p') and not t.relispartition
      and c.table_name not like 'kysely_migration%'
    order by c.table_name, c.ordinal_position`.execute(db);
  return result.rows;
}
