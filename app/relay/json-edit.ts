/**
 * Edits to the members of a JSON object's text that leave every other byte as it was. A client's
 * body is forwarded with a field changed (the mapped model, the usage a stream is asked for)
 * without a parse-and-stringify round trip, which would pass every number through a double
 * (an int64 seed loses its last digits, `1.0` becomes `1`) and respell the rest.
 *
 * The text is expected to be JSON the caller has already parsed: the scan follows its structure
 * (strings and their escapes, nesting, whitespace) without validating every token, and answers
 * undefined for anything that is not one JSON object, so the caller can fall back.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

type Member = { key: string; keyStart: number; valueStart: number; valueEnd: number };
type ObjectSpan = { open: number; close: number; members: Member[] };
type Splice = { start: number; end: number; text: string };

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(raw: Buffer, at: number): number {
  while (isSpace(raw[at])) at += 1;
  return at;
}

/** The index just past the string opening at `at`, found by its closing quote (one not escaped). */
function stringEnd(raw: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = raw.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (raw[quote - 1 - slashes] === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index just past the value starting at `at`: a string, an object or array (by nesting), or a scalar. */
function valueEnd(raw: Buffer, at: number): number {
  const first = raw[at];
  if (first === QUOTE) return stringEnd(raw, at);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let i = at; i < raw.length; i += 1) {
      const byte = raw[i];
      if (byte === QUOTE) {
        const end = stringEnd(raw, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = at;
  while (i < raw.length && raw[i] !== COMMA && raw[i] !== CLOSE_OBJECT && raw[i] !== CLOSE_ARRAY && !isSpace(raw[i]))
    i += 1;
  return i > at ? i : -1;
}

/** A member's key as JSON.parse reads it (escapes decoded, so `"mod\u0065l"` is `model`); undefined if an escape is broken. */
function keyOf(raw: Buffer, start: number, end: number): string | undefined {
  const inner = raw.toString("utf8", start + 1, end - 1);
  if (!inner.includes("\\")) return inner;
  try {
    return JSON.parse(raw.toString("utf8", start, end)) as string;
  } catch {
    return undefined;
  }
}

/** The members of the object whose `{` is at `open`, in order, or undefined when it does not read as one. */
function objectAt(raw: Buffer, open: number): ObjectSpan | undefined {
  const members: Member[] = [];
  let at = skipSpace(raw, open + 1);
  if (raw[at] === CLOSE_OBJECT) return { open, close: at, members };
  for (;;) {
    if (raw[at] !== QUOTE) return undefined;
    const keyEnd = stringEnd(raw, at);
    if (keyEnd < 0) return undefined;
    const colon = skipSpace(raw, keyEnd);
    if (raw[colon] !== COLON) return undefined;
    const valueStart = skipSpace(raw, colon + 1);
    const end = valueEnd(raw, valueStart);
    if (end < 0) return undefined;
    const key = keyOf(raw, at, keyEnd);
    if (key === undefined) return undefined;
    members.push({ key, keyStart: at, valueStart, valueEnd: end });
    const next = skipSpace(raw, end);
    if (raw[next] === CLOSE_OBJECT) return { open, close: next, members };
    if (raw[next] !== COMMA) return undefined;
    at = skipSpace(raw, next + 1);
  }
}

/** The top-level object of a JSON text, or undefined when the text is anything else. */
function topLevelObject(raw: Buffer): ObjectSpan | undefined {
  const open = skipSpace(raw, 0);
  if (raw[open] !== OPEN_OBJECT) return undefined;
  const object = objectAt(raw, open);
  return object && skipSpace(raw, object.close + 1) === raw.length ? object : undefined;
}

/** `{"a":{"b":value}}` for the path [a, b]: what a missing or non-object step becomes. */
function nested(path: readonly string[], value: string): string {
  return path.reduceRight((inner, key) => `{${JSON.stringify(key)}:${inner}}`, value);
}

function plan(raw: Buffer, object: ObjectSpan, path: readonly string[], value: string, splices: Splice[]): void {
  const [key, ...rest] = path as [string, ...string[]];
  const { members } = object;
  let last = -1;
  for (let i = 0; i < members.length; i += 1) if (members[i]!.key === key) last = i;
  if (last < 0) {
    const separator = members.length > 0 ? "," : "";
    splices.push({
      start: object.open + 1,
      end: object.open + 1,
      text: `${JSON.stringify(key)}:${nested(rest, value)}${separator}`,
    });
    return;
  }
  // JSON.parse keeps the last of repeated keys; an upstream's parser may keep the first. The
  // earlier ones go (key, value, comma and the space up to the next key), so every reader sees
  // the edited value.
  for (let i = 0; i < last; i += 1)
    if (members[i]!.key === key) splices.push({ start: members[i]!.keyStart, end: members[i + 1]!.keyStart, text: "" });
  const member = members[last]!;
  const inner =
    rest.length > 0 && raw[member.valueStart] === OPEN_OBJECT ? objectAt(raw, member.valueStart) : undefined;
  if (inner) return plan(raw, inner, rest, value, splices);
  const replacement = nested(rest, value);
  if (raw.toString("utf8", member.valueStart, member.valueEnd) !== replacement)
    splices.push({ start: member.valueStart, end: member.valueEnd, text: replacement });
}

function apply(raw: Buffer, splices: Splice[]): Buffer {
  if (splices.length === 0) return raw;
  splices.sort((a, b) => a.start - b.start);
  const parts: Buffer[] = [];
  let at = 0;
  for (const splice of splices) {
    parts.push(raw.subarray(at, splice.start), Buffer.from(splice.text));
    at = splice.end;
  }
  parts.push(raw.subarray(at));
  return Buffer.concat(parts);
}

/**
 * The JSON object text `raw` with the member at `path` (keys from the top level down) set to the
 * JSON text `value`, as parse-then-set would: a missing member is added first in its object, and
 * a step that is not an object becomes one. Only that value's bytes change (and repeats of its key
 * go); the same buffer comes back when nothing changes. Undefined: `raw` is not a JSON object.
 */
export function setMember(raw: Buffer, path: readonly [string, ...string[]], value: string): Buffer | undefined {
  const object = topLevelObject(raw);
  if (!object) return undefined;
  const splices: Splice[] = [];
  plan(raw, object, path, value, splices);
  return apply(raw, splices);
}

/**
 * `raw` with a top-level member the caller knows is absent (it parsed the text) added first,
 * without scanning the rest: the cheap form of setMember for a long body.
 */
export function insertMember(raw: Buffer, key: string, value: string): Buffer | undefined {
  const open = skipSpace(raw, 0);
  if (raw[open] !== OPEN_OBJECT) return undefined;
  const separator = raw[skipSpace(raw, open + 1)] === CLOSE_OBJECT ? "" : ",";
  return Buffer.concat([
    raw.subarray(0, open + 1),
    Buffer.from(`${JSON.stringify(key)}:${value}${separator}`),
    raw.subarray(open + 1),
  ]);
}

/**
 * `raw` with each top-level key that appears more than once kept only in its last place, where
 * JSON.parse (and so the gateway's price, model and token bounds) reads it. An upstream whose
 * parser keeps the first would otherwise serve a request other than the one billed
 * (`{"max_tokens":100000,"max_tokens":1}`). The same buffer comes back when no key repeats.
 */
export function keepLastOfRepeated(raw: Buffer): Buffer | undefined {
  const object = topLevelObject(raw);
  if (!object) return undefined;
  const { members } = object;
  const lastAt = new Map<string, number>();
  for (let i = 0; i < members.length; i += 1) lastAt.set(members[i]!.key, i);
  if (lastAt.size === members.length) return raw;
  const splices: Splice[] = [];
  for (let i = 0; i < members.length; i += 1) {
    if (lastAt.get(members[i]!.key) !== i)
      splices.push({ start: members[i]!.keyStart, end: members[i + 1]!.keyStart, text: "" });
  }
  return apply(raw, splices);
}
