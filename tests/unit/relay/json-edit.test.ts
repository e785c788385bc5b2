import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertMember, keepLastOfRepeated, setMember } from "~/relay/json-edit";

const text = (buffer: Buffer | undefined) => buffer?.toString("utf8");
const set = (raw: string, path: [string, ...string[]], value: string) => text(setMember(Buffer.from(raw), path, value));

describe("setMember", () => {
  it("replaces a top-level value and no other byte", () => {
    const raw = `{ "messages" : [{"content":"a \\"model\\": {x}"}],\n  "model" :\t"gpt-4o" , "seed":9223372036854775807,"t":1.0,"x":{"a":[1.50,2e3]}}`;
    expect(set(raw, ["model"], '"gpt-4o-2024"')).toBe(raw.replace('"gpt-4o"', '"gpt-4o-2024"'));
  });

  it("does not mistake a nested or quoted key for a top-level one", () => {
    const raw = `{"x":{"model":"inner"},"s":"\\"model\\":\\"quoted\\"","model":"top"}`;
    expect(set(raw, ["model"], '"m"')).toBe(`{"x":{"model":"inner"},"s":"\\"model\\":\\"quoted\\"","model":"m"}`);
  });

  it("adds a missing member first, with a comma only when others follow", () => {
    expect(set(`{"a":1.0}`, ["model"], '"m"')).toBe(`{"model":"m","a":1.0}`);
    expect(set(` { } `, ["model"], '"m"')).toBe(` {"model":"m" } `);
  });

  it("keeps the last of repeated keys (as JSON.parse does) and drops the earlier ones", () => {
    expect(set(`{"model":"a", "n":1, "mod\\u0065l" : "b","z":2}`, ["model"], '"m"')).toBe(
      `{"n":1, "mod\\u0065l" : "m","z":2}`,
    );
  });

  it("keepLastOfRepeated drops the earlier places of any repeated top-level key, and returns the same buffer when none repeats", () => {
    const repeated = Buffer.from(`{"max_tokens":9, "n":1,"inner":{"a":1,"a":2}, "max_tokens" :1,"n":2}`);
    expect(keepLastOfRepeated(repeated)!.toString()).toBe(`{"inner":{"a":1,"a":2}, "max_tokens" :1,"n":2}`);
    const plain = Buffer.from(`{"a":1.0,"b":[1,1]}`);
    expect(keepLastOfRepeated(plain)).toBe(plain);
    expect(keepLastOfRepeated(Buffer.from("[1]"))).toBeUndefined();
  });

  it("sets a field inside the client's object, keeping its other fields byte for byte", () => {
    const raw = `{"stream_options": {"x_unknown":1.0, "include_usage" : false},"seed":12345678901234567890}`;
    expect(set(raw, ["stream_options", "include_usage"], "true")).toBe(raw.replace("false", "true"));
    expect(set(`{"stream_options":{ "x":[1.50] }}`, ["stream_options", "include_usage"], "true")).toBe(
      `{"stream_options":{"include_usage":true, "x":[1.50] }}`,
    );
  });

  it("replaces a step that is not an object, and leaves an equal value alone (same buffer)", () => {
    expect(set(`{"stream_options":null,"a":1.0}`, ["stream_options", "include_usage"], "true")).toBe(
      `{"stream_options":{"include_usage":true},"a":1.0}`,
    );
    expect(set(`{"stream_options":[1]}`, ["stream_options", "include_usage"], "true")).toBe(
      `{"stream_options":{"include_usage":true}}`,
    );
    const raw = Buffer.from(`{"stream_options":{"include_usage":true}}`);
    expect(setMember(raw, ["stream_options", "include_usage"], "true")).toBe(raw);
  });

  it("declines anything that is not one JSON object", () => {
    for (const raw of [
      "",
      "  ",
      "[]",
      '"model"',
      "1.0",
      "null",
      `{"a":1}{"b":2}`,
      `{"a":1`,
      `{"a" 1}`,
      `{"a":"x}`,
      `{"a\\x":1}`,
    ]) {
      expect(set(raw, ["model"], '"m"'), raw).toBeUndefined();
    }
  });
});

describe("insertMember", () => {
  it("adds a member first without touching the rest", () => {
    expect(text(insertMember(Buffer.from(` {"a":1.0}`), "stream_options", `{"include_usage":true}`))).toBe(
      ` {"stream_options":{"include_usage":true},"a":1.0}`,
    );
    expect(text(insertMember(Buffer.from(`{ }`), "k", "1"))).toBe(`{"k":1 }`);
    expect(insertMember(Buffer.from(`[1]`), "k", "1")).toBeUndefined();
  });
});

// Random objects written the way clients write them: any spacing, escaped keys, repeated keys.
const space = fc.constantFrom("", " ", "\n  ", "\t", "\r\n");
const key = fc
  .oneof(fc.constantFrom("model", "stream_options", "include_usage", "messages"), fc.string())
  .filter((k) => k !== "__proto__");
const keyText = key.chain((k) =>
  k === "model" ? fc.constantFrom('"model"', '"mod\\u0065l"') : fc.constant(JSON.stringify(k)),
);
const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc
      .jsonValue({ maxDepth: 2 })
      .chain((v) => fc.integer({ min: 0, max: 2 }).map((indent) => JSON.stringify(v, null, indent))),
    fc
      .array(fc.tuple(keyText, tie("value"), space), { maxLength: 4 })
      .map((members) => `{${members.map(([k, v, s]) => `${s}${k}${s}:${s}${v}${s}`).join(",")}}`),
  ),
})).value;
const objectText = fc
  .array(fc.tuple(keyText, value, space), { maxLength: 6 })
  .map((members) => `{${members.map(([k, v, s]) => `${s}${k}${s}:${s}${v}${s}`).join(",")}}`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

describe("setMember, for any object", () => {
  it("setting model equals parse-then-set", () => {
    fc.assert(
      fc.property(objectText, fc.string(), (raw, model) => {
        const edited = setMember(Buffer.from(raw), ["model"], JSON.stringify(model));
        expect(JSON.parse(edited!.toString("utf8"))).toEqual({ ...(JSON.parse(raw) as object), model });
      }),
      { numRuns: 500 },
    );
  });

  it("asking for usage equals parse-then-merge into stream_options", () => {
    fc.assert(
      fc.property(objectText, (raw) => {
        const parsed = JSON.parse(raw) as Record<string, unknown>;
        const options = parsed.stream_options;
        const expected = { ...parsed, stream_options: { ...(isObject(options) ? options : {}), include_usage: true } };
        const edited = setMember(Buffer.from(raw), ["stream_options", "include_usage"], "true");
        expect(JSON.parse(edited!.toString("utf8"))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("leaves a body already carrying the value byte for byte", () => {
    fc.assert(
      fc.property(objectText, (raw) => {
        const once = setMember(Buffer.from(raw), ["model"], '"m"')!;
        expect(setMember(once, ["model"], '"m"')).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});
