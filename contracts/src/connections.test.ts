import { confirmsDeletion } from "./connections";

describe("connection deletion confirmation", () => {
  it("accepts the word of any UI language in any case, or the exact name; nothing else", () => {
    expect(confirmsDeletion("excluir", "Vendas")).toBe(true);
    expect(confirmsDeletion("Удалить", "Vendas")).toBe(true);
    expect(confirmsDeletion("Vendas", "Vendas")).toBe(true);
    expect(confirmsDeletion("vendas", "Vendas")).toBe(false);
    expect(confirmsDeletion("", "Vendas")).toBe(false);
    expect(confirmsDeletion(undefined, "Vendas")).toBe(false);
    expect(confirmsDeletion("REMOVE", "Vendas")).toBe(false);
  });
});
