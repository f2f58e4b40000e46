import { templateButtonParameters, templateProblems, templateVariables, type ChannelTemplate } from "./channel-contract";

const base = (over: Partial<ChannelTemplate> = {}): Pick<ChannelTemplate, "header" | "body" | "buttons"> => ({
  body: { text: "Olá {{1}}, seu pedido {{2}} saiu para entrega.", example: ["Maria", "1234"] },
  ...over,
});

describe("templateVariables", () => {
  it("answers each variable once, in order of first use, spaces inside the braces allowed", () => {
    expect(templateVariables("{{2}} e {{ 1 }} e {{2}}")).toEqual([2, 1]);
    expect(templateVariables("sem variáveis")).toEqual([]);
  });
});

describe("templateButtonParameters", () => {
  it("answers the buttons that take a value at each send: a URL with {{1}} and a copy code required, a quick reply's payload optional, a fixed URL and a call button none", () => {
    const buttons: ChannelTemplate["buttons"] = [
      { type: "QUICK_REPLY", text: "Quero" },
      { type: "URL", text: "Site", url: "https://loja.test/" },
      { type: "URL", text: "Pedido", url: "https://loja.test/p/{{1}}", example: ["123"] },
      { type: "PHONE_NUMBER", text: "Ligar", phoneNumber: "+5511999990000" },
      { type: "COPY_CODE", text: "Copiar", example: ["NATAL10"] },
    ];
    expect(templateButtonParameters({ buttons })).toEqual([
      { index: 0, type: "QUICK_REPLY", text: "Quero", required: false },
      { index: 2, type: "URL", text: "Pedido", required: true, example: "123" },
      { index: 4, type: "COPY_CODE", text: "Copiar", required: true, example: "NATAL10" },
    ]);
    expect(templateButtonParameters({})).toEqual([]);
  });
});

describe("templateProblems (spec §5: header and body variables match their examples)", () => {
  it("accepts a well-formed template with a text header, buttons of each type and their examples", () => {
    expect(
      templateProblems(
        base({
          header: { format: "TEXT", text: "Pedido {{1}}", example: ["1234"] },
          buttons: [
            { type: "QUICK_REPLY", text: "Falar com atendente" },
            { type: "URL", text: "Rastrear", url: "https://loja.example/r/{{1}}", example: ["abc"] },
            { type: "PHONE_NUMBER", text: "Ligar", phoneNumber: "+5511999990000" },
            { type: "COPY_CODE", text: "Copiar cupom", example: ["PROMO10"] },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it("names a body whose examples do not match its variables", () => {
    expect(templateProblems(base({ body: { text: "Olá {{1}}, pedido {{2}} pronto.", example: ["Maria"] } }))).toEqual([{ field: "body.text.example", reason: "2 variable(s) need as many examples (got 1)" }]);
    expect(templateProblems(base({ body: { text: "Olá {{1}}, pedido pronto.", example: [" "] } }))).toEqual([{ field: "body.text.example", reason: "examples must not be empty" }]);
  });

  it("refuses gaps in the numbering, a body starting or ending with a variable, and an empty body", () => {
    expect(templateProblems(base({ body: { text: "Olá {{1}}, pedido {{3}} pronto.", example: ["a", "b"] } })).map((p) => p.reason)).toEqual(["variables must be numbered {{1}}, {{2}}… without gaps"]);
    expect(templateProblems(base({ body: { text: "{{1}}, seu pedido saiu.", example: ["Maria"] } })).map((p) => p.reason)).toEqual(["the body may not start or end with a variable"]);
    expect(templateProblems(base({ body: { text: "  " } })).map((p) => p.field)).toEqual(["body.text"]);
  });

  it("checks a text header: its text, at most one variable, and its example", () => {
    expect(templateProblems(base({ header: { format: "TEXT" } })).map((p) => p.field)).toEqual(["header.text"]);
    expect(templateProblems(base({ header: { format: "TEXT", text: "{{1}} e {{2}}", example: ["a", "b"] } })).map((p) => p.reason)).toEqual(["a header has at most one variable"]);
    expect(templateProblems(base({ header: { format: "TEXT", text: "Pedido {{1}}" } })).map((p) => p.field)).toEqual(["header.text.example"]);
    // A media header has no text to check.
    expect(templateProblems(base({ header: { format: "IMAGE" } }))).toEqual([]);
  });

  it("checks each button for what its type needs", () => {
    const problems = templateProblems(
      base({
        buttons: [
          { type: "URL", text: "Site", url: "http://insecure.example" },
          { type: "PHONE_NUMBER", text: "Ligar", phoneNumber: "11 9999-0000" },
          { type: "COPY_CODE", text: "Cupom" },
          { type: "QUICK_REPLY", text: " " },
        ],
      }),
    );
    expect(problems.map((p) => p.field)).toEqual(["buttons.0.url", "buttons.1.phoneNumber", "buttons.2.example", "buttons.3.text"]);
  });
});
