import type { ColumnType } from "kysely";

// int8 columns are parsed to JS numbers on both pg and PGlite (db/connect.ts): quota fits well
// inside 2^53 (that is 18 billion USD of quota).
export type Int8 = ColumnType<number, number | undefined, number>;
export type Int8Required = ColumnType<number, number, number>;
