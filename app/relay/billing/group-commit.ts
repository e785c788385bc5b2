/**
 * Group commit: while one write is running, the requests that arrive queue up and the next
 * write takes them all at once. A lone request is written at once (no timer, no added latency);
 * under load, N concurrent requests cost about one statement and one commit instead of N, and
 * the hot rows (a user's balance) are locked once per batch instead of once per request.
 */
export function groupCommit<I, O>(write: (items: I[]) => Promise<O[]>, maxBatch = 256): (item: I) => Promise<O> {
  let queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
        queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
        try {
          const results = await write(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => entry.resolve(results[i]!));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      running = false;
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
