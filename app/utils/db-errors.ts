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
 * rotated, 3D000 while a database is restored: pg marks every connect-time refusal FATAL), the
 * connection (08), shutdown (57P), resource (53), transaction-rollback (40) and configuration
 * classes. A write that waits is held durably in the settlement journal meanwhile.
 */
export function isDataRefusal(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  if (severity === "FATAL" || severity === "PANIC") return false;
  const sqlState = String(code ?? "");
  return /^[0-9A-Z]{5}$/.test(sqlState) && DATA_CLASSES.has(sqlState.slice(0, 2));
}

// What node-postgres and the pool say when a connection is cut or cannot be had (no SQLSTATE).
const CONNECTION_LOST = /connection terminated|connection ended unexpectedly|connection error|timeout exceeded when trying to connect|ECONNREFUSED|ECONNRESET|EPIPE/i;

/**
 * Whether an error means the database could not be reached or dropped the connection (a
 * terminated backend, a shutdown, no connection to be had): the request may succeed if tried
 * again, so it is answered 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = String((error as { code?: string }).code ?? "");
  if (code.startsWith("08") || code.startsWith("57P") || code.startsWith("53")) return true;
  return CONNECTION_LOST.test(String((error as { message?: string }).message ?? ""));
}
