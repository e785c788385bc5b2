import { createServer, type AddressInfo } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { connectDatabase } from "../../../db/connect";
import { isConnectionRefusal, isDatabaseUnavailable, isDataRefusal } from "~/utils/db-errors";

/** An error as node-postgres builds it from the server's ErrorResponse. */
function serverError(code: string, severity: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, "error");
  error.code = code;
  error.severity = severity;
  return error;
}

describe("database errors", () => {
  it("a connection the server refuses (FATAL) is a connection refusal and unavailable, whatever its SQLSTATE", () => {
    for (const [code, message] of [
      ["55000", 'database "app" is not currently accepting connections'],
      ["57P03", "the database system is starting up"],
      ["28P01", 'password authentication failed for user "app"'],
      ["28000", 'role "app" does not exist'],
      ["3D000", 'database "app" does not exist'],
    ] as const) {
      const error = serverError(code, "FATAL", message);
      expect(isConnectionRefusal(error), code).toBe(true);
      expect(isDatabaseUnavailable(error), code).toBe(true);
    }
  });

  it("a statement the server refuses (ERROR) is neither, even with a code a refused connection can carry", () => {
    for (const code of ["55000", "23505", "22012", "3D000"]) {
      const error = serverError(code, "ERROR", "refused");
      expect(isConnectionRefusal(error), code).toBe(false);
      expect(isDatabaseUnavailable(error), code).toBe(false);
    }
  });

  it("a refusal while connecting counts even when the server translates its severity word", async () => {
    // A stand-in server that refuses every session as PostgreSQL does with allow_connections
    // off, under lc_messages = zh_CN: SQLSTATE 55000, severity not "FATAL".
    const fields = [
      ["S", "致命错误"],
      ["C", "55000"],
      ["M", '数据库 "app" 当前不接受连接'],
    ].map(([k, v]) => Buffer.concat([Buffer.from(k!), Buffer.from(`${v}\0`)]));
    const body = Buffer.concat([...fields, Buffer.from([0])]);
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length + 4);
    const refusal = Buffer.concat([Buffer.from("E"), length, body]);
    const refuser = createServer((socket) => socket.once("data", () => socket.end(refusal)));
    await new Promise<void>((resolve) => refuser.listen(0, "127.0.0.1", resolve));
    const port = (refuser.address() as AddressInfo).port;
    const database = await connectDatabase({ url: `postgres://app@127.0.0.1:${port}/app`, pgliteDir: "memory://" });
    try {
      const error = await database.db
        .selectFrom("users")
        .select("id")
        .execute()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toMatchObject({ code: "55000", severity: "致命错误" });
      expect(isConnectionRefusal(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await database.close();
      refuser.close();
    }
    // The same error raised by a statement (not while connecting) is about the statement.
    expect(isConnectionRefusal(serverError("55000", "致命错误", "数据库不接受连接"))).toBe(false);
  });

  it("anything thrown, not only errors, can be asked about", () => {
    for (const thrown of [undefined, null, "text", 42]) expect(isDatabaseUnavailable(thrown)).toBe(false);
  });

  it("only what the database judged about the data is a data refusal (a settlement set aside); everything else is waited out", () => {
    // A database refusing connections for a restart or failover: the settlement writer waits.
    expect(isDataRefusal(serverError("55000", "FATAL", 'database "x" is not currently accepting connections'))).toBe(
      false,
    );
    expect(isDataRefusal(serverError("57P03", "FATAL", "the database system is starting up"))).toBe(false);
    expect(isDataRefusal(serverError("28P01", "FATAL", "password authentication failed"))).toBe(false);
    expect(isDataRefusal(serverError("40001", "ERROR", "could not serialize access"))).toBe(false);
    expect(isDataRefusal(serverError("42P01", "ERROR", 'relation "logs" does not exist'))).toBe(false);
    expect(isDataRefusal(serverError("55P03", "ERROR", "lock not available"))).toBe(false);
    // The data itself: out of range, a bad value, a constraint, a program limit.
    expect(isDataRefusal(serverError("22003", "ERROR", "value out of range for type integer"))).toBe(true);
    expect(isDataRefusal(serverError("22P02", "ERROR", "invalid input syntax"))).toBe(true);
    expect(isDataRefusal(serverError("54000", "ERROR", "index row size exceeds maximum"))).toBe(true);
  });

  it("data refusals are judged by SQLSTATE class as before", () => {
    expect(isDataRefusal(serverError("23505", "ERROR", "duplicate key"))).toBe(true);
    expect(isDataRefusal(serverError("08006", "FATAL", "connection failure"))).toBe(false);
    expect(isDataRefusal(serverError("57P01", "FATAL", "terminating connection due to administrator command"))).toBe(
      false,
    );
    expect(isDataRefusal(new Error("Connection terminated unexpectedly"))).toBe(false);
  });
});
