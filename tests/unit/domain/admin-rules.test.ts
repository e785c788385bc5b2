import { describe, expect, it } from "vitest";
import { rowOperations } from "~/domain/users/admin-rules";

/** The /user page's row operations: exactly what the server would accept, less no-op toggles. */
const root = { id: 1, role: 100 };
const admin = { id: 2, role: 10 };
const row = (id: number, role: number, status = 1, deleted_at: Date | null = null) => ({
  id,
  role,
  status,
  deleted_at,
});

describe("user rows: who may do what to whom", () => {
  it("root edits, promotes, bans and deregisters an ordinary user; demotes an admin", () => {
    expect(rowOperations(root, row(5, 1))).toEqual({ edit: true, actions: ["disable", "delete", "promote"] });
    expect(rowOperations(root, row(6, 10))).toEqual({ edit: true, actions: ["disable", "delete", "demote"] });
    expect(rowOperations(root, row(7, 1, 2))).toEqual({ edit: true, actions: ["enable", "delete", "promote"] });
  });

  it("root on its own row may only edit (never ban, demote or delete itself)", () => {
    expect(rowOperations(root, row(1, 100))).toEqual({ edit: true, actions: [] });
  });

  it("an admin acts only on ordinary users and never promotes or demotes", () => {
    expect(rowOperations(admin, row(5, 1))).toEqual({ edit: true, actions: ["disable", "delete"] });
    for (const target of [row(1, 100), row(2, 10), row(8, 10)])
      expect(rowOperations(admin, target)).toEqual({ edit: false, actions: [] });
  });

  it("a deregistered account has no operations for anyone; status 3 is not enabled from the page", () => {
    expect(rowOperations(root, row(5, 1, 1, new Date()))).toEqual({ edit: false, actions: [] });
    expect(rowOperations(root, row(5, 1, 3)).actions).toEqual(["delete", "promote"]);
  });
});
