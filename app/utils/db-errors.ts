/**
 * Whether the database refused the data itself (a constraint, a cast, a value out of range)
 * rather than being unreachable or busy: only then does trying the same write again never help.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = String((error as { code?: string }).code ?? "");
  // No SQLSTATE, or connection (08), shutdown (57P) and resource (53) classes: try again as is.
  return /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08") && !code.startsWith("57P") && !code.startsWith("53");
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
