import { format } from "node:util";
import pino from "pino";

/**
 * LOG_FORMAT=json: every line the process prints is one JSON object (pino), for a log collector.
 * The code keeps logging through `console`, in the house style `[component] message`; this
 * adapter, installed first thing in each process, turns each call into
 * `{"level","time","pid","component","msg"}`, with `request_id` on relay lines about one request
 * (`[relay] <the id the client got in X-Oneapi-Request-Id> …`) and `err` for an Error argument.
 * Bearer keys are masked in every line (an upstream's error text may quote one).
 */
const COMPONENT = /^\[([A-Za-z][\w-]*)\] /;
// The relay's request ids: a second-resolution stamp and 12 hex digits (errors.server.ts).
const REQUEST_ID = /^(\d{14}[0-9a-f]{12})\b ?/;
const BEARER_KEY = /\b(sk|sess|pk)-[A-Za-z0-9_-]{12,}/g;
// Headers that carry a credential, as a library might print them: the value (with its scheme),
// and for cookies every pair up to the end of the value.
const AUTH_HEADER =
  /\b(authorization|x-api-key|api-key)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',}]+/gi;
const COOKIE_HEADER = /\b(cookie|set-cookie)(["']?\s*[:=]\s*["']?)[^"'\n}]+/gi;

export function maskSecrets(text: string): string {
  return text.replace(BEARER_KEY, "$1-***").replace(AUTH_HEADER, "$1$2***").replace(COOKIE_HEADER, "$1$2***");
}

type Level = "debug" | "info" | "warn" | "error" | "fatal";

/** One console call as the fields of its JSON line. */
export function structuredLine(args: unknown[]): {
  msg: string;
  component?: string;
  request_id?: string;
  err?: { type: string; message: string; stack?: string };
} {
  const error = args.find((arg): arg is Error => arg instanceof Error);
  let msg = maskSecrets(format(...args.filter((arg) => arg !== error)));
  const line: ReturnType<typeof structuredLine> = { msg };
  const component = COMPONENT.exec(msg);
  if (component) {
    line.component = component[1];
    msg = msg.slice(component[0].length);
    const id = component[1] === "relay" ? REQUEST_ID.exec(msg) : null;
    if (id) {
      line.request_id = id[1];
      msg = msg.slice(id[0].length);
    }
    line.msg = msg;
  }
  if (error)
    line.err = {
      type: error.name,
      message: maskSecrets(error.message),
      stack: error.stack ? maskSecrets(error.stack) : undefined,
    };
  return line;
}

let installed = false;

export function installJsonConsole(): void {
  if (installed) return;
  installed = true;
  // Synchronous writes: a line logged just before a crash is not lost in a buffer.
  const logger = pino(
    {
      base: {
        pid: process.pid,
        ...(process.env.WEB_PROCESS_SLOT ? { web_process: Number(process.env.WEB_PROCESS_SLOT) } : {}),
      },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      messageKey: "msg",
    },
    pino.destination({ dest: 1, sync: true }),
  );
  const write = (level: Level, args: unknown[]) => {
    const { msg, ...fields } = structuredLine(args);
    logger[level](fields, msg);
  };
  const emit =
    (level: Level) =>
    (...args: unknown[]) =>
      write(level, args);
  console.log = emit("info");
  console.info = emit("info");
  console.warn = emit("warn");
  console.error = emit("error");
  console.debug = emit("debug");
  // Node would print these itself, as plain text: they become lines like the others (the
  // default printer is a 'warning' listener of its own).
  process.removeAllListeners("warning");
  process.on("warning", (warning) => write("warn", [`[node] ${warning.message}`, warning]));
  process.on("uncaughtException", (error) => {
    write("fatal", ["[process] uncaught exception", error]);
    process.exit(1);
  });
}
