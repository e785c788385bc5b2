import { baseUrl } from "./api";

/** One fuzz case: a request and what it means to the report. */
export type FuzzCase = {
  method: string;
  path: string;
  /** A JSON string, a form body, or a Buffer; undefined for no body. */
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Relay (/v1) cases may answer 502/503/504 on purpose: an upstream failure, not a crash. */
  relay?: boolean;
};

export type FuzzOutcome = { fuzzCase: FuzzCase; status: number; reply: string; ms: number };

function preview(text: string | Buffer | undefined, max = 160): string {
  if (text === undefined) return "";
  const s = typeof text === "string" ? text : `<${text.length} bytes>`;
  const escaped = JSON.stringify(s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s);
  return escaped;
}

export function describeCase(outcome: FuzzOutcome): string {
  const { fuzzCase: c } = outcome;
  const path = c.path.length > 200 ? `${c.path.slice(0, 200)}…(${c.path.length} chars)` : c.path;
  return `${outcome.status} (${outcome.ms} ms) ${c.method} ${path}${c.body === undefined ? "" : ` body=${preview(c.body)}`} → ${preview(outcome.reply, 200)}`;
}

/** Sends one case; a network error (reset, closed socket) counts as status 0, which fails like a 5xx. */
export async function sendCase(fuzzCase: FuzzCase, clientIp: string): Promise<FuzzOutcome> {
  const startedAt = Date.now();
  try {
    const res = await fetch(baseUrl() + fuzzCase.path, {
      method: fuzzCase.method,
      headers: {
        "X-Forwarded-For": clientIp,
        ...(fuzzCase.contentType ? { "Content-Type": fuzzCase.contentType } : {}),
        ...fuzzCase.headers,
      },
      body: typeof fuzzCase.body === "string" || fuzzCase.body === undefined ? fuzzCase.body : new Uint8Array(fuzzCase.body),
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
    const reply = await res.text();
    return { fuzzCase, status: res.status, reply: reply.slice(0, 2000), ms: Date.now() - startedAt };
  } catch (error) {
    return { fuzzCase, status: 0, reply: `network error: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`, ms: Date.now() - startedAt };
  }
}

/** A 5xx (or no answer at all) is a failure, except the relay's deliberate upstream statuses. */
export function isServerFailure(outcome: FuzzOutcome): boolean {
  if (outcome.status === 0) return true;
  if (outcome.status < 500) return false;
  return !(outcome.fuzzCase.relay && [502, 503, 504].includes(outcome.status));
}

/** Runs the cases a few at a time (the machine is small and shared). */
export async function runCases(cases: FuzzCase[], ipOf: (index: number) => string, concurrency = 4): Promise<FuzzOutcome[]> {
  const outcomes: FuzzOutcome[] = new Array(cases.length);
  let next = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    while (next < cases.length) {
      const index = next++;
      outcomes[index] = await sendCase(cases[index]!, ipOf(index));
    }
  });
  await Promise.all(workers);
  return outcomes;
}
