import type { SourceDb } from "../types";
import { openMysqlSource } from "./mysql";
import { openPostgresSource } from "./postgres";
import { openSqliteSource } from "./sqlite";

/** The source string with its password hidden, for the report and errors. */
export function maskSource(source: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    try {
      const url = new URL(source);
      if (url.password) url.password = "***";
      return url.toString();
    } catch {}
  }
  // A Go DSN (`user:pass@tcp(…)/db`) or anything else with a user:password@ in front.
  return source.replace(/^([^:@/]*):[^@]*@/, "$1:***@");
}

/**
 * The sources' own MySQL DSN form (`user:pass@tcp(host:port)/db?…`, their SQL_DSN) as a URL, so
 * an operator can paste what their deployment had.
 */
export function mysqlUrlFromGoDsn(dsn: string): string | undefined {
  const match = /^([^:@]*)(?::([^@]*))?@tcp\(([^)]*)\)\/([^?]*)/.exec(dsn);
  if (!match) return undefined;
  const [, user, password, hostPort, database] = match;
  const auth =
    password !== undefined
      ? `${encodeURIComponent(user ?? "")}:${encodeURIComponent(password)}`
      : encodeURIComponent(user ?? "");
  return `mysql://${auth}@${hostPort || "127.0.0.1:3306"}/${database}`;
}

/** Chooses the reader by the source string: a URL's scheme, a Go MySQL DSN, else a SQLite file. */
export async function openSource(source: string): Promise<SourceDb> {
  const label = maskSource(source);
  if (/^(mysql|mariadb):\/\//i.test(source)) return openMysqlSource(source.replace(/^mariadb:/i, "mysql:"), label);
  if (/^postgres(ql)?:\/\//i.test(source)) return openPostgresSource(source, label);
  const goDsn = mysqlUrlFromGoDsn(source);
  if (goDsn) return openMysqlSource(goDsn, label);
  return openSqliteSource(source);
}
