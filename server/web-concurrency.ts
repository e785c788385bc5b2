/**
 * How many web processes `npm start` runs on its one port (decision 038). Several processes are
 * only correct when everything they must agree on is shared: the database (PGlite is one
 * process's file) and Redis (cache invalidations, rate-limit counters and job progress are
 * process-local without it). Anything else runs one process and says why.
 */
export type WebConcurrency = { count: number; note?: string };

export function webConcurrency(env: Readonly<Record<string, string | undefined>>, cores: number): WebConcurrency {
  const raw = env.WEB_CONCURRENCY?.trim();
  const asked = raw ? Number(raw) : undefined;
  if (asked !== undefined && (!Number.isInteger(asked) || asked < 1)) {
    return { count: 1, note: `WEB_CONCURRENCY=${raw} is not a whole number of processes ≥ 1: running one web process` };
  }
  const wanted = asked ?? Math.max(1, cores);
  if (wanted === 1) return { count: 1 };
  const missing = [env.DATABASE_URL ? undefined : "DATABASE_URL", env.REDIS_URL ? undefined : "REDIS_URL"].filter(
    Boolean,
  );
  if (missing.length > 0) {
    // The default quietly fits the deployment; an explicit request that cannot be honoured is said out loud.
    return asked === undefined
      ? { count: 1 }
      : {
          count: 1,
          note: `WEB_CONCURRENCY=${asked} needs ${missing.join(" and ")} (processes share state through PostgreSQL and Redis): running one web process`,
        };
  }
  return { count: wanted };
}
