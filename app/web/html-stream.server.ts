import { Transform, type TransformCallback } from "node:stream";

/**
 * React 18's streaming renderer writes its output in 2 KB views. When a multi-byte character
 * (every Chinese one is three bytes in UTF-8) does not fit at the end of a view, it sends the
 * whole view anyway, unwritten zero bytes included (react-dom 18.3 `writeStringChunk`; React 19
 * sends only the written part). The page then carries a NUL before that character: hydration
 * hides it, but without JavaScript the browser shows 操练�场 or 关�键字 (seen in the no-JS tests).
 *
 * UTF-8 text never ends a chunk with a 0x00 byte, and NUL is refused at the edge (decision 011),
 * so the trailing zeros of a chunk are always that padding: this transform drops them.
 */
export function dropRenderPadding(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let end = chunk.length;
      while (end > 0 && chunk[end - 1] === 0) end -= 1;
      done(null, end === chunk.length ? chunk : chunk.subarray(0, end));
    },
  });
}
