/**
 * Relayed calls of this process between admission and settlement. A call alone in flight has no
 * company to share a write with, so it need not wait for any: its journal line is written at
 * once, and a stream's last read goes to the client before billing instead of with the end.
 */
let inFlight = 0;

export function callStarted(): void {
  inFlight += 1;
}

export function callEnded(): void {
  inFlight -= 1;
}

/** No other call of this process is between admission and settlement. */
export function callAlone(): boolean {
  return inFlight <= 1;
}
