import { checkAnswer, compileSafeRegex, evaluateConditions, REGEX_MAX, TEXT_MAX } from "./conditions";
import type { Condition } from "../model";

const contact = { name: "Ana Souza", number: "5511987654321", email: null };
const input = (text: string, open = true) => {
  const asked = { n: 0 };
  return { asked, input: { text, contact, open: async () => (asked.n++, open) } };
};

describe("answer checks", () => {
  it("any: not empty; email: an address; number: digits with a sign or decimal", () => {
    expect(checkAnswer("any", "  Ana  ")).toEqual({ ok: true, value: "Ana" });
    expect(checkAnswer("any", "   ")).toEqual({ ok: false, reason: "empty" });
    expect(checkAnswer("email", " Ana@Exemplo.com.br ")).toEqual({ ok: true, value: "ana@exemplo.com.br" });
    for (const bad of ["ana", "ana@", "ana@exemplo", "a b@c.com", "@x.com"]) expect(checkAnswer("email", bad)).toEqual({ ok: false, reason: "email" });
    expect(checkAnswer("number", "1 234,5")).toEqual({ ok: true, value: "1234.5" });
    expect(checkAnswer("number", "-7")).toEqual({ ok: true, value: "-7" });
    for (const bad of ["sete", "1,2,3", "12a"]) expect(checkAnswer("number", bad)).toEqual({ ok: false, reason: "number" });
  });
});

describe("safe regex", () => {
  it("compiles ordinary patterns", () => {
    for (const p of ["^\\d{5}-?\\d{3}$", "(sim|yes)", "pedido\\s+#?(\\d+)", "[a-z]+@[a-z]+\\.com", "^(?:oi|ola)\\b"]) expect(compileSafeRegex(p, "i").ok).toBe(true);
  });

  it("refuses nested repetition, back-references, odd flags, long patterns and broken syntax", () => {
    for (const p of ["(a+)+$", "(a|aa)*b", "((ab)*)+", "(x{2,})+", "(a?)+", "(\\w+\\s?)*$", "(a)\\1", "(?<x>a)\\k<x>"]) expect(compileSafeRegex(p)).toMatchObject({ ok: false });
    expect(compileSafeRegex("a", "g").ok).toBe(false);
    expect(compileSafeRegex("a".repeat(REGEX_MAX + 1)).ok).toBe(false);
    expect(compileSafeRegex("(a").ok).toBe(false);
    expect(compileSafeRegex("").ok).toBe(false);
  });
});

describe("conditions", () => {
  const kw = (values: string[], exact?: boolean): Condition => ({ type: "keyword", values, exact });

  it("keyword: a whole word or phrase of the message, accents and case aside; exact: the whole message", async () => {
    expect((await evaluateConditions("all", [kw(["orçamento"])], input("Quero um ORCAMENTO, por favor").input)).value).toBe(true);
    expect((await evaluateConditions("all", [kw(["oi"])], input("Boa noite").input)).value).toBe(false);
    expect((await evaluateConditions("all", [kw(["falar com atendente"])], input("quero falar com  atendente!").input)).value).toBe(true);
    expect((await evaluateConditions("all", [kw(["sim"], true)], input("sim, claro").input)).value).toBe(false);
    expect((await evaluateConditions("all", [kw(["sim"], true)], input(" Sim ").input)).value).toBe(true);
  });

  it("regex on the message (capped), an unsafe one false with its error", async () => {
    expect((await evaluateConditions("all", [{ type: "regex", pattern: "^\\d{8}$" }], input("01310100").input)).value).toBe(true);
    expect((await evaluateConditions("all", [{ type: "regex", pattern: "x$" }], input("a".repeat(TEXT_MAX) + "x").input)).value).toBe(false);
    const bad = await evaluateConditions("any", [{ type: "regex", pattern: "(a+)+$" }], input("aaaa").input);
    expect(bad.value).toBe(false);
    expect(bad.error).toMatch(/regex refused/);
  });

  it("contact fields: equals, contains, empty, not empty; numbers compared by digits", async () => {
    const cf = (field: "name" | "number" | "email", operator: "equals" | "contains" | "empty" | "notEmpty", value?: string): Condition => ({ type: "contactField", field, operator, value });
    const ok = async (c: Condition) => (await evaluateConditions("all", [c], input("").input)).value;
    expect(await ok(cf("name", "contains", "souza"))).toBe(true);
    expect(await ok(cf("name", "equals", "ana souza"))).toBe(true);
    expect(await ok(cf("number", "equals", "+55 11 98765-4321"))).toBe(true);
    expect(await ok(cf("email", "empty"))).toBe(true);
    expect(await ok(cf("email", "notEmpty"))).toBe(false);
    expect(await ok(cf("name", "contains", ""))).toBe(false);
  });

  it("business hours asked only when needed; all / any and their empty cases", async () => {
    const hours: Condition = { type: "businessHours", open: true };
    const closed: Condition = { type: "businessHours", open: false };
    let x = input("oi", false);
    expect((await evaluateConditions("all", [hours], x.input)).value).toBe(false);
    expect((await evaluateConditions("all", [closed], x.input)).value).toBe(true);
    x = input("oi", true);
    expect((await evaluateConditions("any", [kw(["oi"]), hours], x.input)).value).toBe(true);
    expect(x.asked.n).toBe(0);
    expect((await evaluateConditions("all", [kw(["tchau"]), hours], x.input)).value).toBe(false);
    expect(x.asked.n).toBe(0);
    expect((await evaluateConditions("all", [], x.input)).value).toBe(true);
    expect((await evaluateConditions("any", [], x.input)).value).toBe(false);
  });
});
