/**
 * A bounded cache of exchanged credentials (Baidu access tokens, Zhipu JWTs) with single-flight
 * refresh: concurrent requests for one key share one exchange, a value is reused until its
 * expiry minus a margin, and a rejected exchange is not cached.
 */
export type Expiring<T> = { value: T; expiresAt: number };

export class CredentialCache<T> {
  private readonly entries = new Map<string, Expiring<T>>();
  private readonly inFlight = new Map<string, Promise<Expiring<T>>>();

  constructor(
    private readonly marginMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  async get(key: string, exchange: () => Promise<Expiring<T>>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt - this.marginMs > Date.now()) return cached.value;
    let running = this.inFlight.get(key);
    if (!running) {
      running = exchange().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, running);
    }
    const fresh = await running;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, fresh);
    return fresh.value;
  }

  /** Drops a value the provider said is no longer valid (unless a newer one replaced it already). */
  invalidate(key: string, value?: T): void {
    const cached = this.entries.get(key);
    if (cached && (value === undefined || cached.value === value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
