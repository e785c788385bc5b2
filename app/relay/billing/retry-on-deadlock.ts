/**
 * Billing statements lock a user's row and a token's row (and, batched, several payers' rows),
 * while other batches settle or refund the same rows on other connections. PostgreSQL breaks
 * any cycle by aborting one statement whole (nothing of it applied), so it is safe to run that
 * statement again; a short random pause lets the other side finish first.
 */
const RETRYABLE = new Set(["40P01", "40001"]); // deadlock_detected, serialization_failure

export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (!RETRYABLE.has(code) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}
