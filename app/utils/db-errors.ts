import { failedWhileConnecting } from "../../db/connect-errors";

/**
 * SQLSTATE classes in which the database judged the data itself: a data exception (22: a value
 * out of range, a bad cast, invalid text), an integrity constraint (23) or a program limit (54:
 * a value too large for an index row). Writing the same data again can never succeed.
 */
const DATA_CLASSES = new Set(["22", "23", "54"]);

/**
 * Whether the database refused the data itself rather than being unreachable, refusing
 * connections, restarting or busy: only then does trying the same write again never help.
 *
 * Everything else waits: no SQLSTATE (a dropped socket), a refused connection whatever its code
 * (55000 "not currently accepting connections", 57P03 "starting up", 28P01 while a password is
 * rotated, 3D000 while a database is restored: isConnectionRefusal), the
 * connection (08), shutdown (57P), resource (53), transaction-rollback (40) and configuration
 * classes. A write that waits is held durably in the settlement journal meanwhile.
 */
export function isDataRefusal(error: unknown): boolean {
  if (isConnectionRefusal(error)) return false;
  const sqlState = String((error as { code?: unknown } | null | undefined)?.code ?? "");
  return /^[0-9A-Z]{5}$/.test(sqlState) && DATA_CLASSES.has(sqlState.slice(0, 2));
}

// What node-postgres and the pool say when a connection is cut or cannot be had (no SQLSTATE).
const CONNECTION_LOST =
  /connection terminated|connection ended unexpectedly|connection error|timeout exceeded when trying to connect|ECONNREFUSED|ECONNRESET|EPIPE/i;

/**
 * Whether the database refused a connection rather than a statement: the error was raised while
 * a connection was being acquired, or the server sent it as FATAL, which ends the session (the
 * database not accepting connections, still starting up, the login refused, the database gone).
 * Such errors carry SQLSTATEs outside the connection class (55000, 28P01, 3D000), and 55000 on a
 * statement means the data is not in a state for it, so the code alone cannot tell.
 */
export function isConnectionRefusal(error: unknown): boolean {
  if (failedWhileConnecting(error)) return true;
  const severity = (error as { severity?: unknown } | null | undefined)?.severity;
  return severity === "FATAL" || severity === "PANIC";
}

/**
 * Whether an error means the database could not be reached or dropped the connection (a
 * terminated backend, a shutdown, a refused connection, no connection to be had): the request
 * may succeed if tried again, so it is answered 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isConnectionRefusal(error)) return true;
  // Anything may be thrown (a page's loader can throw undefined); only errors have these fields.
  const fields = (error ?? {}) as { code?: string; message?: string };
  const code = String(fields.code ?? "");
  if (code.startsWith("08") || code.startsWith("57P") || code.startsWith("53")) return true;
  return CONNECTION_LOST.test(String(fields.message ?? ""));
}
