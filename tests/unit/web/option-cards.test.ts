import { describe, expect, it } from "vitest";
import { getOptionDef } from "~/domain/options/registry";
import { cardView } from "~/web/settings/card-save.server";
import { OPERATION_CARDS, SYSTEM_CARDS } from "~/web/settings/option-cards.server";

describe("settings cards (decision 016)", () => {
  const cards = [...OPERATION_CARDS, ...SYSTEM_CARDS];

  it("every card field is a registered option, owned by exactly one card", () => {
    const owner = new Map<string, string>();
    for (const card of cards) {
      for (const field of card.fields) {
        expect(getOptionDef(field.key), field.key).toBeDefined();
        expect(owner.get(field.key), `${field.key} in ${card.intent} and ${owner.get(field.key)}`).toBeUndefined();
        owner.set(field.key, card.intent);
      }
    }
  });

  it("a card's kind matches its option: booleans are checkboxes, JSON options JSON boxes, secrets never plain text", () => {
    for (const field of cards.flatMap((c) => c.fields)) {
      const def = getOptionDef(field.key)!;
      expect(field.kind === "bool", field.key).toBe(def.type === "bool");
      expect(field.kind === "json", field.key).toBe(def.type === "json");
      expect(field.kind === "secret", field.key).toBe(Boolean(def.secret));
    }
  });

  it("intents are unique per tab", () => {
    for (const tab of [OPERATION_CARDS, SYSTEM_CARDS]) expect(new Set(tab.map((c) => c.intent)).size).toBe(tab.length);
  });

  it("a number box lets the browser refuse what the registry refuses: out of range, a fraction where a whole number is due", () => {
    const fields = cards.map(cardView).flatMap((c) => c.fields);
    const field = (key: string) => fields.find((f) => f.key === key)!;
    expect(field("RetryTimes")).toMatchObject({ min: 0, max: 10, step: "1" });
    expect(field("SMTPPort")).toMatchObject({ min: 1, max: 65535, step: "1" });
    // A decimal's "above 0" has no HTML form: 0 is left to the server, fractions are allowed.
    expect(field("QuotaPerUnit")).toMatchObject({ min: 0, max: 1e12, step: "any" });
    expect(field("TopUpLink").maxLength).toBe(4096);
    for (const f of fields.filter((f) => f.kind === "number")) expect(f.min, f.key).toBeGreaterThanOrEqual(0);
  });
});
