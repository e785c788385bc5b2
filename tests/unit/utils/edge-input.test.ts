import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkRequestTarget, findJsonProblem, idSchema, readForm, readId } from "~/utils/edge-input";

describe("one parsing layer at the edge", () => {
  it("an id is 1 … 2³¹−1 in plain digits; everything else is no id", () => {
    expect(readId("1")).toBe(1);
    expect(readId(2147483647)).toBe(2147483647);
    for (const bad of [
      "2147483648",
      "0",
      "-1",
      "abc",
      "1e3",
      "0x10",
      " 1",
      "1.5",
      "",
      null,
      undefined,
      [],
      {},
      "9".repeat(30),
    ])
      expect(readId(bad)).toBeUndefined();
    expect(z.object({ id: idSchema }).safeParse({ id: "12" }).data).toEqual({ id: 12 });
    expect(z.object({ id: idSchema }).safeParse({ id: 2147483648 }).success).toBe(false);
  });

  it("NUL anywhere in a JSON body, or nesting past the limit, is found without recursion", () => {
    expect(findJsonProblem({ a: [{ b: "ok\n\t" }] })).toBeUndefined();
    expect(findJsonProblem({ a: [{ b: "x\u0000" }] })).toContain("NUL");
    expect(findJsonProblem({ ["k\u0000"]: 1 })).toContain("NUL");
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findJsonProblem(deep)).toContain("嵌套");
  });

  it("broken %-escapes in a path, NUL in path or query and legacy ?_data= are refused; bad escapes in a query are left to the route", () => {
    expect(checkRequestTarget("/token/edit/12?p=1")).toBeUndefined();
    expect(checkRequestTarget("/token?keyword=%ZZ")).toBeUndefined();
    expect(checkRequestTarget("/token/edit/%E0%A4%A")).toContain("%");
    expect(checkRequestTarget("/token/%00")).toContain("NUL");
    expect(checkRequestTarget("/api/token/search?keyword=%00")).toContain("NUL");
    expect(checkRequestTarget("/token?_data=routes%2Ftoken._index")).toContain("_data");
  });

  it("a form with NUL in any field is a 400, a clean one is read as usual", async () => {
    const post = (body: string) =>
      new Request("http://x/token/add", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    expect((await readForm(post("name=a&b=c"))).get("b")).toBe("c");
    const refused = await readForm(post("name=a%00b")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(400);
  });
});
