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
      body:
        typeof fuzzCase.body === "string" || fuzzCase.body === undefined
          ? fuzzCase.body
          : new Uint8Array(fuzzCase.body),
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
    const reply = await res.text();
    return { fuzzCase, status: res.status, reply: reply.slice(0, 2000), ms: Date.now() - startedAt };
  } catch (error) {
    return {
      fuzzCase,
      status: 0,
      reply: `network error: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`,
      ms: Date.now() - startedAt,
    };
  }
}

/** A 5xx (or no answer at all) is a failure, except the relay's deliberate upstream statuses. */
export function isServerFailure(outcome: FuzzOutcome): boolean {
  if (outcome.status === 0) return true;
  if (outcome.status < 500) return false;
  return !(outcome.fuzzCase.relay && [502, 503, 504].includes(outcome.status));
}

/** Runs the cases a few at a time (the machine is small and shared). */
export async function runCases(
  cases: FuzzCase[],
  ipOf: (index: number) => string,
  concurrency = 4,
): Promise<FuzzOutcome[]> {
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

export type PendingCase = { item: string; matches: (o: FuzzOutcome) => boolean };

/**
 * Prints the count tried, every 5xx or dropped connection (method, path, body, reply) and where
 * the time went; returns the failures that are not known pending, for the test to assert on.
 */
export function reportOutcomes(
  label: string,
  outcomes: FuzzOutcome[],
  startedAt: number,
  knownPending: PendingCase[],
): string[] {
  const failures = outcomes.filter(isServerFailure);
  const pending = failures.filter((o) => knownPending.some((p) => p.matches(o)));
  const unexpected = failures.filter((o) => !pending.includes(o));
  console.log(
    `[fuzz] ${label}: ${outcomes.length} cases tried in ${((Date.now() - startedAt) / 1000).toFixed(1)} s, ${failures.length} 5xx/no answer (${pending.length} known pending)`,
  );
  for (const o of pending)
    console.log(`[fuzz]   pending (${knownPending.find((p) => p.matches(o))?.item}): ${describeCase(o)}`);
  for (const o of unexpected) console.log(`[fuzz]   FAIL: ${describeCase(o)}`);
  const byPath = new Map<string, { n: number; ms: number }>();
  for (const o of outcomes) {
    const key = `${o.fuzzCase.method} ${o.fuzzCase.path.split("?")[0]!.slice(0, 60)}`;
    const entry = byPath.get(key) ?? { n: 0, ms: 0 };
    byPath.set(key, { n: entry.n + 1, ms: entry.ms + o.ms });
  }
  const costly = [...byPath].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6);
  console.log(`[fuzz]   most time: ${costly.map(([k, v]) => `${k} ×${v.n} ${(v.ms / 1000).toFixed(1)} s`).join("; ")}`);
  return unexpected.map(describeCase);
}
