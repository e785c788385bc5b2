import type { ProgressCounter, ProgressReporter } from "./types";

/** Updates at most this often: a terminal redrawn per row would cost more than the import. */
const REDRAW_MS = 500;

/**
 * Progress lines for long tables, with a rate. On a terminal one line is redrawn in place; into a
 * file or a pipe (CI, `| tee`) a line is printed every few seconds instead, so logs stay short.
 */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  const interactive = Boolean(stream.isTTY);
  return {
    start(table, total) {
      const started = Date.now();
      let rows = 0;
      let lastDraw = 0;
      const line = () => {
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        const rate = Math.round(rows / seconds);
        const share = total ? ` / ${total} (${Math.floor((rows / Math.max(total, 1)) * 100)}%)` : "";
        return `[import] ${table}: ${rows}${share} rows, ${rate} rows/s`;
      };
      const draw = (force: boolean) => {
        const now = Date.now();
        if (!force && now - lastDraw < (interactive ? REDRAW_MS : 5_000)) return;
        lastDraw = now;
        stream.write(interactive ? `\r\x1b[2K${line()}` : `${line()}\n`);
      };
      const counter: ProgressCounter = {
        add(n) {
          rows += n;
          draw(false);
        },
        done() {
          stream.write(interactive ? `\r\x1b[2K${line()}\n` : `${line()}\n`);
        },
      };
      return counter;
    },
  };
}

/** For tests and quiet runs. */
export const silentProgress: ProgressReporter = { start: () => ({ add: () => undefined, done: () => undefined }) };
