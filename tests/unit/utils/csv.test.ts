import { describe, expect, it } from "vitest";
import { csvField, csvLine } from "~/utils/csv";

describe("CSV fields", () => {
  it("quotes only what needs it, doubling quotes", () => {
    expect(csvField("plain 中文")).toBe("plain 中文");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField(-12)).toBe("-12");
    expect(csvField(true)).toBe("true");
  });

  it("defuses text a spreadsheet would run as a formula", () => {
    for (const text of ["=1+1", "+1", "-2", "@SUM(A1)", "\tx"]) expect(csvField(text)).toBe(`'${text}`);
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it("ends each line with CRLF", () => {
    expect(csvLine(["a", 1, "b,c"])).toBe('a,1,"b,c"\r\n');
  });
});
