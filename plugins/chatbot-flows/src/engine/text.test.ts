import { fillText, firstNameOf, isTestPhone, keyMatches, menuOptions, normalise, pickOption, renderMenu } from "./text";

const values = { name: "Ana", protocol: "20261130-7", vars: { cidade: "Curitiba", "order_id": "A-9" } };

describe("flow texts", () => {
  it("fills name, protocol and variables in any case and spacing; unknown braces stay, unset variables are empty", () => {
    expect(fillText("Olá {{name}}, protocolo {{ PROTOCOL }}", values)).toBe("Olá Ana, protocolo 20261130-7");
    expect(fillText("Em {{var.cidade}} ({{ var.order_id }}) {{var.nada}}.", values)).toBe("Em Curitiba (A-9) .");
    expect(fillText("{{other}} {{var.}} {name}", values)).toBe("{{other}} {{var.}} {name}");
  });

  it("calls the contact by the first word of the name", () => {
    expect(firstNameOf("  Ana Maria Souza ")).toBe("Ana");
    expect(firstNameOf("")).toBe("");
    expect(firstNameOf(null)).toBe("");
  });

  it("normalises case, accents and spaces", () => {
    expect(normalise("  Atenção   AO  Cliente ")).toBe("atencao ao cliente");
    expect(keyMatches("Suporte técnico", "suporte TECNICO ")).toBe(true);
    expect(keyMatches("1", "1 ")).toBe(true);
    expect(keyMatches("1", "11")).toBe(false);
    expect(keyMatches("", "")).toBe(false);
  });
});

describe("numbered menus", () => {
  const buttons = { style: "buttons" as const, title: "Olá {{name}}!", text: "Como podemos ajudar?", footer: "Responda com o número", options: [{ id: "a", title: "Vendas" }, { id: "b", title: "Suporte técnico", description: "problemas e dúvidas" }], sections: [] };
  const list = {
    style: "list" as const,
    title: "Menu",
    text: "",
    options: [],
    sections: [
      { title: "Comercial", rows: [{ id: "s1", title: "Planos" }, { id: "s2", title: "Preços" }] },
      { title: "", rows: [{ id: "s3", title: "Falar com alguém" }] },
      { title: "Vazia", rows: [] },
    ],
  };

  it("renders title, text, one numbered line per option and the footer", () => {
    expect(renderMenu(buttons, (s) => fillText(s, values))).toBe("Olá Ana!\nComo podemos ajudar?\n\n1 — Vendas\n2 — Suporte técnico - problemas e dúvidas\n\nResponda com o número");
    expect(renderMenu(list)).toBe("Menu\n\n*Comercial*\n1 — Planos\n2 — Preços\n3 — Falar com alguém");
  });

  it("takes the option's number or title, accents and case aside", () => {
    expect(pickOption(menuOptions(buttons), "2")?.id).toBe("b");
    expect(pickOption(menuOptions(buttons), " 1. ")?.id).toBe("a");
    expect(pickOption(menuOptions(buttons), "SUPORTE TECNICO")?.id).toBe("b");
    expect(pickOption(menuOptions(list), "3")?.id).toBe("s3");
    expect(pickOption(menuOptions(list), "preços")?.id).toBe("s2");
    for (const wrong of ["0", "4", "vendas!", "", "1 2"]) expect(pickOption(menuOptions(list), wrong)).toBeNull();
  });
});

describe("test phone", () => {
  it("compares digits, with or without the country code", () => {
    expect(isTestPhone("+55 (11) 98765-4321", "5511987654321")).toBe(true);
    expect(isTestPhone("11987654321", "5511987654321")).toBe(true);
    expect(isTestPhone("5511987654321", "5511987654320")).toBe(false);
    expect(isTestPhone("5511987654321", null)).toBe(false);
    expect(isTestPhone("4321", "5511987654321")).toBe(false);
  });
});
