import { describe, expect, it } from "vitest";
import { getOptionDef } from "~/domain/options/registry";
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
});
