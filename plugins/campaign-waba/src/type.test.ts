import { fillTemplateText, fillVariable, unknownPlaceholders, wabaType, type WabaContent } from "./type";

const ana = { contactId: 7, name: "  Ana Maria Souza ", number: "5511999990000" };

describe("the WABA campaign's variables", () => {
  it("fill a contact's name, first name and number, anywhere in a literal", () => {
    expect(fillVariable("{{name}}", ana)).toBe("Ana Maria Souza");
    expect(fillVariable("Cara {{ firstName }}!", ana)).toBe("Cara Ana!");
    expect(fillVariable("{{number}}", ana)).toBe("5511999990000");
    expect(fillVariable("NATAL10", ana)).toBe("NATAL10");
    // Meta refuses an empty variable.
    expect(fillVariable("{{number}}", { ...ana, number: null })).toBe("-");
  });

  it("name unknown placeholders, which the content check refuses", () => {
    expect(unknownPlaceholders("{{email}} e {{name}}")).toEqual(["email"]);
    const c: WabaContent = { template: { name: "promo", language: "pt_BR" }, body: ["{{email}}", " "] };
    expect(wabaType.validateContent(c)).toEqual({ "body.0": "ERR_CAMPAIGN_WABA_CONTENT_INVALID", "body.1": "ERR_CAMPAIGN_WABA_CONTENT_INVALID" });
    expect(wabaType.validateContent({ ...c, template: { name: "Promo", language: "pt-BR" }, body: [] })).toEqual({ "template.name": "ERR_CAMPAIGN_WABA_CONTENT_INVALID", "template.language": "ERR_CAMPAIGN_WABA_CONTENT_INVALID" });
  });

  it("make one contact's send: the template by name with its components, and its filled text for the chat", () => {
    expect(fillTemplateText("Olá {{1}}, cupom {{2}} ({{3}})", ["Ana", "X"])).toBe("Olá Ana, cupom X ({{3}})");
    const c: WabaContent = { template: { name: "promo", language: "pt_BR" }, header: ["{{firstName}}"], body: ["{{name}}", "X"], preview: { header: "Para {{1}}", body: "Olá {{1}}, cupom {{2}}", footer: null } };
    expect(wabaType.buildSend(c, ana, 0)).toEqual({ body: "Para Ana\n\nOlá Ana Maria Souza, cupom X", template: { name: "promo", language: "pt_BR", components: { header: { text: ["Ana"] }, body: ["Ana Maria Souza", "X"] } } });
    expect(wabaType.buildSend({ template: { name: "oi", language: "en" }, body: [], preview: { header: null, body: "Hi!", footer: null } }, ana, 0)).toEqual({ body: "Hi!", template: { name: "oi", language: "en" } });
    const headerMedia = { path: "tenants/1/media/2026-11/x-oferta.png", mimeType: "image/png", fileName: "oferta.png" };
    expect(wabaType.buildSend({ template: { name: "oferta", language: "pt_BR" }, body: ["{{firstName}}"], headerMedia, preview: { header: null, body: "Oi {{1}}", footer: null } }, ana, 0)).toEqual({ body: "Oi Ana", template: { name: "oferta", language: "pt_BR", components: { header: { media: headerMedia }, body: ["Ana"] } } });
  });

  it("fill each button's value for the contact; a quick reply left empty goes without a payload; a repeated button or an unknown field is refused", () => {
    const c: WabaContent = {
      template: { name: "cupom", language: "pt_BR" },
      body: [],
      buttons: [
        { index: 0, value: "" },
        { index: 2, value: "{{number}}" },
        { index: 4, value: "CUPOM-{{firstName}}" },
      ],
      preview: { header: null, body: "Seu cupom", footer: null },
    };
    expect(wabaType.buildSend(c, ana, 0).template).toEqual({ name: "cupom", language: "pt_BR", components: { buttons: [{ index: 2, value: "5511999990000" }, { index: 4, value: "CUPOM-Ana" }] } });
    // A URL button's suffix takes the contact's fields percent-encoded, the typed text as it is.
    const url: WabaContent = { ...c, buttons: [{ index: 1, value: "promo/{{name}}?n={{number}}" }], preview: { header: null, body: "Seu cupom", footer: null, urlButtons: [1] } };
    expect(wabaType.buildSend(url, { ...ana, name: "Ana Lúcia & Cia" }, 0).template?.components?.buttons).toEqual([{ index: 1, value: "promo/Ana%20L%C3%BAcia%20%26%20Cia?n=5511999990000" }]);
    expect(wabaType.buildSend({ ...url, preview: { ...url.preview!, urlButtons: [] } }, { ...ana, name: "Ana Lúcia" }, 0).template?.components?.buttons).toEqual([{ index: 1, value: "promo/Ana Lúcia?n=5511999990000" }]);
    expect(wabaType.validateContent({ ...c, buttons: [{ index: 2, value: "{{email}}" }, { index: 4, value: "a" }, { index: 4, value: "b" }] })).toEqual({ "buttons.2": "ERR_CAMPAIGN_WABA_CONTENT_INVALID", "buttons.4": "ERR_CAMPAIGN_WABA_CONTENT_INVALID" });
  });
});
