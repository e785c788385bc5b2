/**
 * The gate every loader, action and relay call waits at until the app is booted (database open
 * and migrated, options loaded, crash recovery done). The boot sequence itself belongs to the
 * composition root (`server/boot.ts`), which wires web, relay and jobs together and hands it
 * here with `startBoot`; the layers below it only wait, so none of them imports the root.
 *
 * The state lives on globalThis: development reloads modules on change, and a reload must find
 * the app booted rather than boot it twice.
 */
type Gate = { sequence?: () => Promise<void>; running?: Promise<void>; booted: boolean };

const state = globalThis as unknown as { __switchyardBootGate?: Gate };
const gate: Gate = (state.__switchyardBootGate ??= { booted: false });

/** True once the boot sequence has finished: the relay then skips even a resolved await (a turn of the microtask queue). */
export function isBooted(): boolean {
  return gate.booted;
}

/** Runs the boot sequence once (called by the composition root; a second call returns the first run). */
export function startBoot(sequence: () => Promise<void>): Promise<void> {
  gate.sequence ??= sequence;
  return whenBooted();
}

/**
 * Resolves once the app is booted. A boot that failed (the database unreachable) is tried again
 * by the next caller, not cached; with no sequence handed in, the caller learns so at once
 * instead of waiting forever.
 */
export function whenBooted(): Promise<void> {
  if (gate.booted) return Promise.resolve();
  if (gate.running) return gate.running;
  const sequence = gate.sequence;
  if (!sequence)
    return Promise.reject(new Error("the app has not been booted: the server entry (server/boot.ts) starts it"));
  const running = sequence().then(() => {
    gate.booted = true;
  });
  gate.running = running;
  running.catch(() => {
    if (gate.running === running) gate.running = undefined;
  });
  return running;
}
