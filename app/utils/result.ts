/**
 * The outcome of an operation that can be refused for a reason the caller shows (a form error, an
 * `/api` `{success:false,message}`): a value, or the message saying why not. An operation with
 * nothing to return is `Result` alone, and its success may leave `value` out.
 */
export type Result<T = undefined, E = string> =
  ([T] extends [undefined] ? { ok: true; value?: T } : { ok: true; value: T }) | { ok: false; message: E };
