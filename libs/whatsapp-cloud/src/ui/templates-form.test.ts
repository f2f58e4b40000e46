import { byField, draftProblems, emptyButton, emptyDraft, formFieldOf, problemText, sampleAccept, toTemplate, variablesOf, type TemplateDraft } from "./templates-form";
import { templateScreenTexts } from "./texts-templates";

const draft = (over: Partial<TemplateDraft> = {}): TemplateDraft => ({ ...emptyDraft(), name: "pedido_enviado", body: "Olá {{1}}, seu pedido sai {{2}}.", bodyExamples: { 1: "Ana", 2: "hoje" }, ...over });

describe("the template form's data", () => {
  it("asks one example per variable, in number order", () => {
    expect(variablesOf("Olá {{2}} e {{1}}, de novo {{2}}")).toEqual([1, 2]);
    expect(variablesOf("sem variáveis")).toEqual([]);
  });

  it("builds the template the API takes: examples in variable order, empty parts left out", () => {
    const t = toTemplate(
      draft({
        headerFormat: "TEXT",
        headerText: "Pedido {{1}}",
        headerExamples: { 1: " #123 " },
        body: "Oi {{2}}? Não: {{1}} primeiro.",
        bodyExamples: { 2: "Ana", 1: "hoje", 3: "stale" },
        footer: "  ",
        buttons: [{ ...emptyButton("URL"), text: "Rastrear", url: "https://loja.test/r/{{1}}", example: "https://loja.test/r/abc", phoneNumber: "+5511999999999" }, { ...emptyButton("QUICK_REPLY"), text: "Parar" }],
      }),
    );
    expect(t).toEqual({
      name: "pedido_enviado",
      language: "pt_BR",
      category: "UTILITY",
      header: { format: "TEXT", text: "Pedido {{1}}", example: ["#123"] },
      body: { text: "Oi {{2}}? Não: {{1}} primeiro.", example: ["hoje", "Ana"] },
      buttons: [{ type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}", example: ["https://loja.test/r/abc"] }, { type: "QUICK_REPLY", text: "Parar" }],
    });
    // A media header's sample is a file sent beside the template: the plugin uploads it and names its handle.
    expect(toTemplate(draft({ headerFormat: "IMAGE", headerFile: { name: "a.png", type: "image/png", size: 10 } })).header).toEqual({ format: "IMAGE" });
    expect(toTemplate(draft({ headerFormat: "NONE", headerText: "ignored" })).header).toBeUndefined();
  });

  it("finds a missing example on its field, the name's form, and nothing on a good draft", () => {
    expect(draftProblems(draft())).toEqual([]);
    const missing = byField(draftProblems(draft({ bodyExamples: { 1: "Ana" } })));
    expect(Object.keys(missing)).toEqual(["body.text.example"]);
    expect(problemText(missing["body.text.example"])).toEqual({ key: "errExampleEmpty" });
    expect(byField(draftProblems(draft({ name: "Pedido Enviado" })))).toEqual({ name: "name" });
    const header = byField(draftProblems(draft({ headerFormat: "TEXT", headerText: "Pedido {{1}} {{2}}", headerExamples: { 1: "a", 2: "b" } })));
    expect(problemText(header["header.text"])).toEqual({ key: "errHeaderOneVar" });
    const buttons = byField(draftProblems(draft({ buttons: [{ ...emptyButton("PHONE_NUMBER"), text: "Ligar", phoneNumber: "1199" }, { ...emptyButton("COPY_CODE"), text: "" }] })));
    expect(Object.keys(buttons).sort()).toEqual(["buttons.0.phoneNumber", "buttons.1.example", "buttons.1.text"]);
    expect(problemText(draftProblems(draft({ body: "{{1}} chegou", bodyExamples: { 1: "x" } }))[0].reason)).toEqual({ key: "errEdges" });
  });

  it("knows every reason templateProblems gives, and the example count", () => {
    expect(problemText("2 variable(s) need as many examples (got 1)")).toEqual({ key: "errExampleCount", vars: { count: 2 } });
    expect(problemText("something Meta said")).toBeNull();
    const keys = Object.keys(templateScreenTexts["pt-BR"].tpl);
    for (const reason of ["name", "footer", "variables must be numbered", "examples must not be empty", "a TEXT header needs its text", "the body is required", "a button needs its text", "a URL button needs an https address", "a call button needs a number as +5511…", "a copy-code button needs an example code", "sampleMissing", "sampleType:image/png", "sampleSize:5"]) {
      const p = problemText(reason);
      expect(p && keys.includes(p.key)).toBe(true);
    }
  });

  it("asks a media header for its sample file: one, of the header's types, within Meta's size for it", () => {
    const file = (type: string, mb: number) => ({ name: "f", type, size: mb * 1024 * 1024 });
    const at = (d: Partial<TemplateDraft>) => byField(draftProblems(draft({ body: "Olá!", ...d })))["header.example"];
    expect(at({ headerFormat: "IMAGE" })).toBe("sampleMissing");
    expect(problemText(at({ headerFormat: "IMAGE" })!)).toEqual({ key: "errSampleMissing" });
    expect(at({ headerFormat: "IMAGE", headerFile: file("image/gif", 1) })).toBe("sampleType:image/jpeg, image/png");
    expect(problemText(at({ headerFormat: "DOCUMENT", headerFile: file("image/png", 1) })!)).toEqual({ key: "errSampleType", vars: { types: "application/pdf" } });
    expect(problemText(at({ headerFormat: "IMAGE", headerFile: file("image/png", 6) })!)).toEqual({ key: "errSampleSize", vars: { maxMb: 5 } });
    // 6 MB is a video's right, 17 MB is not.
    expect(at({ headerFormat: "VIDEO", headerFile: file("video/mp4", 6) })).toBeUndefined();
    expect(at({ headerFormat: "VIDEO", headerFile: file("video/mp4", 17) })).toBe("sampleSize:16");
    expect(at({ headerFormat: "DOCUMENT", headerFile: file("application/pdf", 99) })).toBeUndefined();
    // A text header or none takes no file.
    expect(at({ headerFormat: "NONE" })).toBeUndefined();
    expect(sampleAccept("TEXT")).toBeNull();
    expect(sampleAccept("VIDEO")).toBe("video/mp4,video/3gpp");
  });

  it("puts the API's field names on the form's fields", () => {
    expect(formFieldOf("template.body.text.example")).toBe("body.text.example");
    expect(formFieldOf("template.body.example[0]")).toBe("body.text.example");
    expect(formFieldOf("template.header.example")).toBe("header.text.example");
    expect(formFieldOf("template.header.example", true)).toBe("header.example");
    expect(formFieldOf("template.buttons[1].url")).toBe("buttons.1.url");
    expect(formFieldOf("template.name")).toBe("name");
    expect(formFieldOf("template.footer")).toBe("footer.text");
  });

  it("has the screen's texts in the four languages with the same keys, none empty", () => {
    const base = Object.keys(templateScreenTexts["pt-BR"].tpl).sort();
    for (const lang of ["en", "es", "ru"] as const) {
      expect(Object.keys(templateScreenTexts[lang].tpl).sort()).toEqual(base);
      for (const v of Object.values(templateScreenTexts[lang].tpl)) expect(v.trim()).not.toBe("");
    }
    // i18next would eat a bare {{1}}: the texts name the literal variables {{v1}}, {{v2}}.
    for (const lang of ["pt-BR", "en", "es", "ru"] as const) for (const v of Object.values(templateScreenTexts[lang].tpl)) expect(v).not.toMatch(/\{\{\d/);
  });
});
