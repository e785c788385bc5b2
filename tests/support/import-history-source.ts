import { readFileSync } from "node:fs";
import bcrypt from "bcryptjs";
import mysql from "mysql2/promise";
import sqlite from "node-sqlite3-wasm";

/**
 * A new-api source database for the history import tests: the fork's tables
 * (tests/fixtures/import/history-new-api.sql) and a small history spread over two months, with
 * the cases the import must handle (Midjourney times in ms, a log time in ms, an unknown log
 * type, a token count past int32, an orphan top-up, quota_data for an hour whose logs are gone).
 */

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
export const TIMES = {
  sept: at("2026-09-15T12:00:00Z"),
  septLater: at("2026-09-15T12:30:00Z"),
  oct: at("2026-10-20T12:00:00Z"),
  octTopUp: at("2026-10-20T13:00:00Z"),
  octRefund: at("2026-10-21T12:00:00Z"),
  octMs: at("2026-10-22T12:00:00Z"),
  augHour: at("2026-08-01T10:00:00Z"),
};

/** bcrypt of "123456", as new-api stores root's default password. */
export const PASSWORD_HASH = bcrypt.hashSync("123456", 4);
const ROOT_HASH = PASSWORD_HASH;

type Insert = [table: string, columns: string[], rows: unknown[][]];

const INSERTS: Insert[] = [
  [
    "users",
    ["id", "username", "password", "role", "status", "quota", "`group`"],
    [
      [1, "root", ROOT_HASH, 100, 1, 0, "default"],
      [2, "alice", ROOT_HASH, 1, 1, 1000, "default"],
    ],
  ],
  [
    "tokens",
    ["id", "user_id", "`key`", "status", "name", "created_time", "model_limits_enabled"],
    [[1, 2, "histtokenkey0000000000000000000000000000000000", 1, "alice-key", TIMES.sept, 0]],
  ],
  [
    "channels",
    ["id", "type", "`key`", "status", "name", "models", "created_time"],
    [[1, 1, "sk-old", 1, "old-openai", "gpt-4o-old", TIMES.sept]],
  ],
  ["options", ["`key`", "value"], [["QuotaPerUnit", "500000"]]],
  [
    "logs",
    [
      "id",
      "user_id",
      "created_at",
      "type",
      "content",
      "username",
      "token_name",
      "model_name",
      "quota",
      "prompt_tokens",
      "completion_tokens",
      "use_time",
      "is_stream",
      "channel_id",
      "token_id",
      "other",
    ],
    [
      [
        1,
        2,
        TIMES.sept,
        2,
        "september call",
        "alice",
        "alice-key",
        "gpt-4o-old",
        1000,
        10,
        20,
        3,
        1,
        1,
        1,
        '{"model_ratio":1}',
      ],
      [
        2,
        2,
        TIMES.septLater,
        2,
        "second september call",
        "alice",
        "alice-key",
        "gpt-4o-old",
        500,
        5,
        5,
        1,
        0,
        1,
        1,
        "",
      ],
      [3, 2, TIMES.oct, 2, "october call", "alice", "alice-key", "gpt-4o-old", 2000, 100, 50, 4, 0, 1, 1, ""],
      [4, 2, TIMES.octTopUp, 1, "online top-up 10", "alice", "", "", 0, 0, 0, 0, 0, 0, 0, ""],
      [5, 2, TIMES.octRefund, 6, "refund of a failed task", "alice", "", "", 300, 0, 0, 0, 0, 0, 0, ""],
      [
        7,
        2,
        TIMES.octMs * 1000,
        2,
        "written in milliseconds",
        "alice",
        "alice-key",
        "gpt-4o-old",
        700,
        3000000000,
        1,
        2,
        0,
        1,
        1,
        "",
      ],
    ],
  ],
  [
    "top_ups",
    ["id", "user_id", "amount", "money", "trade_no", "create_time", "status"],
    [
      [1, 2, 10, 7.3, "T20261020A", TIMES.octTopUp, "success"],
      [2, 99, 5, 3.65, "T-orphan", TIMES.octTopUp, "pending"],
    ],
  ],
  [
    "midjourneys",
    [
      "id",
      "code",
      "user_id",
      "action",
      "mj_id",
      "prompt",
      "submit_time",
      "start_time",
      "finish_time",
      "status",
      "progress",
      "channel_id",
      "quota",
      "image_url",
    ],
    [
      [
        1,
        1,
        2,
        "IMAGINE",
        "mj-hist-1",
        "a cat",
        TIMES.oct * 1000,
        TIMES.oct * 1000 + 1000,
        TIMES.oct * 1000 + 60_000,
        "SUCCESS",
        "100%",
        1,
        5000,
        "https://example.com/cat.png",
      ],
    ],
  ],
  [
    "tasks",
    [
      "id",
      "created_at",
      "updated_at",
      "task_id",
      "platform",
      "user_id",
      "channel_id",
      "quota",
      "action",
      "status",
      "submit_time",
      "start_time",
      "finish_time",
      "progress",
      "properties",
      "data",
    ],
    [
      [
        1,
        TIMES.oct,
        TIMES.oct + 90,
        "suno-hist-1",
        "suno",
        2,
        1,
        4000,
        "MUSIC",
        "SUCCESS",
        TIMES.oct,
        TIMES.oct + 5,
        TIMES.oct + 90,
        "100%",
        '{"input":"a song"}',
        "not json",
      ],
    ],
  ],
  [
    "quota_data",
    ["id", "user_id", "username", "model_name", "created_at", "token_used", "count", "quota"],
    [
      [1, 2, "alice", "gpt-4o-old", TIMES.oct, 150, 1, 2000],
      [2, 2, "alice", "gpt-3.5-gone", TIMES.augHour, 7, 3, 900],
    ],
  ],
];

function statements(): string[] {
  const text = readFileSync("tests/fixtures/import/history-new-api.sql", "utf8").replace(/--.*$/gm, "");
  return text
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
}

export function seedSqliteSource(path: string): void {
  const db = new sqlite.Database(path);
  try {
    for (const ddl of statements()) db.exec(ddl.replaceAll(" auto_increment", ""));
    for (const [table, columns, rows] of INSERTS) {
      for (const row of rows)
        db.run(
          `insert into ${table} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`,
          row as never,
        );
    }
  } finally {
    db.close();
  }
}

/** CI names its server in MARIADB_URL (.ci/run); locally the default 127.0.0.1:3306, root, no password. */
const MARIADB_URL = new URL(process.env.MARIADB_URL ?? "mysql://root@127.0.0.1:3306");
export const MARIADB_ADMIN = {
  host: MARIADB_URL.hostname,
  port: Number(MARIADB_URL.port || 3306),
  user: decodeURIComponent(MARIADB_URL.username),
  password: decodeURIComponent(MARIADB_URL.password),
};

/** Creates `name` on the local MariaDB with the fixture; returns its URL. */
export async function seedMariadbSource(name: string): Promise<string> {
  const admin = await mysql.createConnection(MARIADB_ADMIN);
  try {
    await admin.query(`create database \`${name}\``);
    await admin.query(`use \`${name}\``);
    for (const ddl of statements()) await admin.query(ddl);
    for (const [table, columns, rows] of INSERTS) {
      await admin.query(`insert into ${table} (${columns.join(", ")}) values ?`, [rows]);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(MARIADB_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropMariadbDatabase(name: string): Promise<void> {
  const admin = await mysql.createConnection(MARIADB_ADMIN);
  await admin.query(`drop database if exists \`${name}\``).finally(() => admin.end());
}

export async function mariadbReachable(): Promise<boolean> {
  try {
    const probe = await mysql.createConnection({ ...MARIADB_ADMIN, connectTimeout: 2000 });
    await probe.end();
    return true;
  } catch {
    return false;
  }
}

/** A second SQLite file holding only `logs` (a deployment with LOG_SQL_DSN): ids 100 and 101. */
export function seedSqliteLogDatabase(path: string): void {
  const db = new sqlite.Database(path);
  try {
    const logsDdl = statements().find((s) => s.startsWith("create table logs"))!;
    db.exec(logsDdl.replaceAll(" auto_increment", ""));
    for (const [id, content] of [
      [100, "from the log database"],
      [101, "also from the log database"],
    ] as const) {
      db.run(
        "insert into logs (id, user_id, created_at, type, content, username, model_name, quota) values (?, 2, ?, 2, ?, 'alice', 'gpt-4o-old', 10)",
        [id, TIMES.oct, content],
      );
    }
  } finally {
    db.close();
  }
}
