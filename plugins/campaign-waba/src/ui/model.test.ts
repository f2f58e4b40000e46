import type { ChannelTemplate } from "@openatende/plugin-sdk/src/templates";
import { choose, previewButtons, previewOf, statesOf, templateChoices, validateWabaContent, variableCounts, type ConnectionTemplates } from "./model";

const promo: ChannelTemplate = { name: "promo", language: "pt_BR", category: "MARKETING", status: "APPROVED", header: { format: "TEXT", text: "Para {{1}}" }, body: { text: "Olá {{1}}, cupom {{2}}." } };
const paused: ChannelTemplate = { ...promo, status: "PAUSED" };
const english: ChannelTemplate = { ...promo, language: "en_US", header: undefined, body: { text: "Hi {{1}}" } };

describe("the WABA template editor's model", () => {
  it("offers each name and language once and shows its state on each connection", () => {
    const loaded = new Map<number, ConnectionTemplates>([
      [1, { templates: [promo, english] }],
      [2, { templates: [paused] }],
      [3, { error: "ERR_CHANNEL_UNSUPPORTED" }],
    ]);
    expect(templateChoices([...loaded.values()]).map((t) => `${t.name}/${t.language}/${t.status}`)).toEqual(["promo/pt_BR/APPROVED", "promo/en_US/APPROVED"]);
    expect(statesOf([1, 2, 3, 4], loaded, promo).map((s) => s.state)).toEqual(["APPROVED", "OTHER", "NO_TEMPLATES", "LOADING"]);
    expect(statesOf([1, 2], loaded, english).map((s) => s.state)).toEqual(["APPROVED", "MISSING"]);
  });

  it("sizes the variables to the chosen template, keeping what fits, and previews its text", () => {
    expect(variableCounts(promo)).toEqual({ header: 1, body: 2 });
    const c = choose({ template: { name: "x", language: "en" }, header: [], body: ["{{name}}", "A", "B"], preview: { header: null, body: "old", footer: null } }, promo);
    expect(c).toEqual({ template: { name: "promo", language: "pt_BR" }, header: [""], body: ["{{name}}", "A"] });
    expect(previewOf(promo.body.text, ["{{name}}", " "])).toBe("Olá {{name}}, cupom [2].");
    expect(validateWabaContent(c, (k) => k)).toEqual({ "header.0": "waba.required.variable" });
    expect(validateWabaContent({ template: { name: "", language: "" }, body: [] }, (k) => k)).toEqual({ "template.name": "waba.required.template" });
  });

  it("keeps a header file only while the chosen template's header takes its type", () => {
    const image: ChannelTemplate = { ...promo, name: "oferta", header: { format: "IMAGE" } };
    const pdf: ChannelTemplate = { ...promo, name: "boleto", header: { format: "DOCUMENT" } };
    const headerMedia = { path: "tenants/1/media/x.png", mimeType: "image/png", fileName: "x.png" };
    const c = choose({ template: { name: "", language: "" }, body: [], headerMedia }, image);
    expect(c.headerMedia).toEqual(headerMedia);
    expect(variableCounts(image).header).toBe(0);
    expect(choose(c, pdf).headerMedia).toBeUndefined();
    expect(choose(c, promo).headerMedia).toBeUndefined();
  });

  it("gives one value per button that takes one, kept across templates where the index takes one too, and previews the buttons filled", () => {
    const coupon: ChannelTemplate = {
      ...promo,
      name: "cupom",
      header: undefined,
      buttons: [
        { type: "QUICK_REPLY", text: "Quero" },
        { type: "URL", text: "Pedido", url: "https://loja.test/p/{{1}}" },
        { type: "PHONE_NUMBER", text: "Ligar", phoneNumber: "+5511999990000" },
        { type: "COPY_CODE", text: "Copiar", example: ["NATAL10"] },
      ],
    };
    const c = choose({ template: { name: "", language: "" }, body: [], buttons: [{ index: 1, value: "{{number}}" }, { index: 2, value: "x" }] }, coupon);
    expect(c.buttons).toEqual([{ index: 0, value: "" }, { index: 1, value: "{{number}}" }, { index: 3, value: "" }]);
    expect(choose(c, promo).buttons).toBeUndefined();
    expect(previewButtons(coupon, [{ index: 1, value: " 42 " }, { index: 3, value: "" }])).toEqual([
      { index: 0, type: "QUICK_REPLY", text: "Quero", detail: null },
      { index: 1, type: "URL", text: "Pedido", detail: "https://loja.test/p/42" },
      { index: 2, type: "PHONE_NUMBER", text: "Ligar", detail: "+5511999990000" },
      { index: 3, type: "COPY_CODE", text: "Copiar", detail: "[1]" },
    ]);
  });
});
