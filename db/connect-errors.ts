/**
 * Errors raised while acquiring a connection (the server refusing the session, an unreachable
 * host, the pool's wait running out) carry a mark, because what they say does not tell on its
 * own: a refused session comes with the server's SQLSTATE (55000 "not currently accepting
 * connections", 28P01 a refused login, 3D000 no such database), codes outside the connection
 * class, and its severity word is translated when the server's messages are.
 *
 * The mark is a registered symbol: in development the pool outlives reloaded modules, so the
 * module that marks and the one that reads it may be different copies of this file.
 */
const CONNECTING = Symbol.for("switchyard.db.failed-while-connecting");

/** Marks an error as raised while connecting; returns it, to be thrown on. */
export function markConnectFailure(error: unknown): unknown {
  if (typeof error === "object" && error !== null) {
    try {
      Object.defineProperty(error, CONNECTING, { value: true, configurable: true });
    } catch {
      // A frozen error keeps no mark; the severity check in app/utils/db-errors.ts still applies.
    }
  }
  return error;
}

export function failedWhileConnecting(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[CONNECTING] === true;
}
