/**
 * The auto-reply screen's rules without a browser: one initial step whatever is clicked, steps
 * removed without leaving dangling references, the form's validation (as the server's
 * checkSteps sees it), and every text in the four languages.
 */
import { checkSteps } from "../src/flows/steps";
import { addStep, draftFromFlow, emptyDraft, newAction, removeStep, setInitial, toBody, validate, type Draft } from "../src/ui/auto-resposta/rules";
import { LOCALES, texts } from "../src/ui/texts";

function menuDraft(): Draft {
  const d = emptyDraft("entry");
  d.name = "Menu principal";
  d.steps = addStep(d.steps);
  const [first, second] = d.steps;
  first.message = "1 — Vendas, 2 — Suporte";
  first.actions = [
    { ...newAction(), key: "1", queueId: 10 },
    { ...newAction(), key: "2", nextStepId: second.id },
  ];
  second.message = "Descreva o problema";
  return d;
}

describe("steps", () => {
  it("keeps exactly one initial step: the first added is initial, choosing another unmarks it", () => {
    const d = menuDraft();
    expect(d.steps.map((s) => s.initial)).toEqual([true, false]);
    const moved = setInitial(d.steps, d.steps[1].id);
    expect(moved.map((s) => s.initial)).toEqual([false, true]);
    expect(setInitial(moved, moved[1].id).filter((s) => s.initial)).toHaveLength(1);
  });

  it("removing a step clears the actions that led to it and hands the initial mark on", () => {
    const d = menuDraft();
    const rest = removeStep(d.steps, d.steps[1].id);
    expect(rest).toHaveLength(1);
    expect(rest[0].actions[1].nextStepId).toBeNull();
    const other = removeStep(d.steps, d.steps[0].id);
    expect(other.map((s) => s.initial)).toEqual([true]);
    expect(removeStep(other, other[0].id)).toEqual([]);
  });
});

describe("validation", () => {
  it("accepts a well-formed menu, which the server's rules accept too", () => {
    const d = menuDraft();
    expect(validate(d)).toEqual({});
    expect(checkSteps(toBody(d).steps).problems).toEqual([]);
  });

  it("names each problem's field", () => {
    const d = menuDraft();
    d.name = "  ";
    d.testPhone = "123";
    d.settings.maxAttempts = 11;
    d.steps[1].message = "";
    d.steps[0].actions[1].key = " 1 ";
    // An action with no target is fine: the bot settings' hand-off takes it.
    d.steps[0].actions.push({ ...newAction(), key: "3" });
    const p = validate(d);
    expect(Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.key]))).toEqual({
      name: "errRequired",
      testPhone: "errTestPhone",
      maxAttempts: "errRange",
      [`step:${d.steps[1].id}:message`]: "errRequired",
      [`action:${d.steps[0].actions[1].id}:key`]: "errKeyDup",
    });
  });

  it("keys compare as the customer types them: case and accents aside", () => {
    const d = menuDraft();
    d.steps[0].actions[0].key = "Sí";
    d.steps[0].actions[1].key = "si";
    expect(validate(d)[`action:${d.steps[0].actions[1].id}:key`]?.key).toBe("errKeyDup");
  });

  it("two initial steps (a flow loaded as the server refuses it) and no steps are refused", () => {
    const d = menuDraft();
    d.steps = d.steps.map((s) => ({ ...s, initial: true }));
    expect(validate(d).steps?.key).toBe("errInitial");
    expect(validate({ ...d, steps: [] }).steps?.key).toBe("errNoSteps");
  });

  it("a saved flow comes back as the same draft", () => {
    const d = menuDraft();
    const body = toBody(d);
    const back = draftFromFlow({ id: 1, graph: null, createdAt: "", updatedAt: "", ...body });
    expect(toBody(back)).toEqual(body);
  });
});

describe("texts", () => {
  it("has every key in all four languages, none empty, with the same placeholders", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const l of LOCALES) {
      expect(Object.keys(texts[l]).sort()).toEqual(keys);
      for (const k of keys) {
        const v = (texts[l] as Record<string, string>)[k];
        expect(v.trim()).not.toBe("");
        const vars = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();
        expect([l, k, vars(v)]).toEqual([l, k, vars((texts["pt-BR"] as Record<string, string>)[k])]);
      }
    }
  });
});
