/**
 * The template picker's pure parts: the values a template asks for, their first values, the
 * request POST /messages/{ticketId}/template gets, when the picker replaces the composer, and
 * its texts in every language.
 */
import type { ChannelTemplate } from "@openatende/plugin-sdk";
import type { UiTicket } from "@openatende/plugin-sdk/ui";
import { fieldsOf, fillText, filledText, firstName, headerFileTypes, initialValues, missingFields, templateRequest, unsupportedHeader, variablesOf } from "./template-fill";
import { pickerApplies } from "./register-picker";
import { pickerTexts } from "./texts-picker";

const pedido: ChannelTemplate = { name: "pedido_enviado", language: "pt_BR", category: "UTILITY", status: "APPROVED", body: { text: "Olá {{1}}, seu pedido {{2}} saiu para entrega.", example: ["Maria", "1234"] } };
const rastreio: ChannelTemplate = {
  name: "rastreio",
  language: "pt_BR",
  category: "UTILITY",
  status: "APPROVED",
  header: { format: "TEXT", text: "Pedido {{1}}", example: ["#77"] },
  body: { text: "Olá {{1}}, chega {{2}}. {{1}}, obrigado!", example: ["Bia", "amanhã"] },
  buttons: [
    { type: "QUICK_REPLY", text: "Ok" },
    { type: "URL", text: "Ver", url: "https://loja.test/r/{{1}}", example: ["https://loja.test/r/abc"] },
    { type: "COPY_CODE", text: "Copiar", example: ["CUPOM10"] },
  ],
};

describe("filling a template's variables", () => {
  it("finds each variable once, ascending, and fills them, leaving an empty one as it was", () => {
    expect(variablesOf("{{2}} e {{1}} e {{ 2 }}")).toEqual([1, 2]);
    expect(variablesOf(undefined)).toEqual([]);
    expect(fillText("Olá {{1}}, pedido {{2}}", { 1: " Ana ", 2: "" })).toBe("Olá Ana, pedido {{2}}");
  });

  it("asks for the header's and body's variables and the buttons that need a value, with their examples", () => {
    expect(fieldsOf(pedido)).toEqual([
      { key: "body.1", part: "body", n: 1, example: "Maria" },
      { key: "body.2", part: "body", n: 2, example: "1234" },
    ]);
    expect(fieldsOf(rastreio).map((f) => f.key)).toEqual(["header.1", "body.1", "body.2", "button.1", "button.2"]);
  });

  it("starts the body's {{1}} with the contact's first name (not a phone number) and a copy code with its example", () => {
    expect(firstName("  Maria  Silva ")).toBe("Maria");
    expect(firstName("5511999990000")).toBe("");
    expect(firstName(null)).toBe("");
    expect(initialValues(pedido, "Maria Silva")).toEqual({ "body.1": "Maria", "body.2": "" });
    expect(initialValues(pedido, "+55 11 99999-0000")).toEqual({ "body.1": "", "body.2": "" });
    expect(initialValues(rastreio, "Bia")).toEqual({ "header.1": "", "body.1": "Bia", "body.2": "", "button.1": "", "button.2": "CUPOM10" });
  });

  it("names what is missing, so nothing goes out half filled", () => {
    expect(missingFields(pedido, { "body.1": "Maria", "body.2": "  " }).map((f) => f.key)).toEqual(["body.2"]);
    expect(missingFields(pedido, { "body.1": "Maria", "body.2": "1234" })).toEqual([]);
  });

  it("builds the send: the filled text the chat shows and the values in Meta's order", () => {
    expect(templateRequest(pedido, { "body.1": "Maria", "body.2": " 1234 " })).toEqual({
      name: "pedido_enviado",
      language: "pt_BR",
      body: "Olá Maria, seu pedido 1234 saiu para entrega.",
      components: { body: ["Maria", "1234"] },
    });
    const values = { "header.1": "#77", "body.1": "Bia", "body.2": "amanhã", "button.1": "abc77", "button.2": "CUPOM10" };
    expect(templateRequest(rastreio, values)).toEqual({
      name: "rastreio",
      language: "pt_BR",
      body: "Pedido #77\n\nOlá Bia, chega amanhã. Bia, obrigado!",
      components: { header: { text: ["#77"] }, body: ["Bia", "amanhã"], buttons: [{ index: 1, value: "abc77" }, { index: 2, value: "CUPOM10" }] },
    });
    const plain: ChannelTemplate = { ...pedido, body: { text: "Obrigado pela preferência!" } };
    expect(templateRequest(plain, {})).toEqual({ name: "pedido_enviado", language: "pt_BR", body: "Obrigado pela preferência!" });
    expect(filledText(pedido, {})).toBe(pedido.body.text);
  });

  it("asks a media header for its file (of the header's types) and sends it as the header; only a location header cannot be sent", () => {
    expect(unsupportedHeader(pedido)).toBe(false);
    expect(unsupportedHeader(rastreio)).toBe(false);
    expect(unsupportedHeader({ header: { format: "IMAGE" } })).toBe(false);
    expect(unsupportedHeader({ header: { format: "LOCATION" } })).toBe(true);
    expect(headerFileTypes({ header: { format: "IMAGE" } })).toBe("image/jpeg,image/png");
    expect(headerFileTypes({ header: { format: "DOCUMENT" } })).toBe("application/pdf");
    expect(headerFileTypes(pedido)).toBeNull();
    const promo: ChannelTemplate = { ...pedido, header: { format: "IMAGE" } };
    expect(fieldsOf(promo).map((f) => f.key)).toEqual(["body.1", "body.2"]);
    const file = { data: "iVBORw0KGgo=", mimeType: "image/png", fileName: "promo.png" };
    expect(templateRequest(promo, { "body.1": "Ana", "body.2": "9" }, file).components).toEqual({ header: { media: file }, body: ["Ana", "9"] });
    // A file given for a text header is not sent.
    expect(templateRequest(pedido, { "body.1": "Ana", "body.2": "9" }, file).components?.header).toBeUndefined();
  });
});

describe("when the picker replaces the composer", () => {
  const ticket: UiTicket = { id: 1, status: "open", contactId: 2, connectionId: 3, queueId: null, userId: 7, isGroup: false, channel: "channel-waba", serviceWindow: { hours: 24, open: false, closesAt: null } };
  it("only on the holder's open ticket of the plugin's channel whose window closed", () => {
    expect(pickerApplies(ticket, 7, "channel-waba")).toBe(true);
    expect(pickerApplies(ticket, 8, "channel-waba")).toBe(false);
    expect(pickerApplies({ ...ticket, status: "pending" }, 7, "channel-waba")).toBe(false);
    expect(pickerApplies({ ...ticket, channel: "channel-whatsapp" }, 7, "channel-waba")).toBe(false);
    // 360dialog's picker takes its own tickets, never WABA's.
    expect(pickerApplies({ ...ticket, channel: "channel-360" }, 7, "channel-360")).toBe(true);
    expect(pickerApplies(ticket, 7, "channel-360")).toBe(false);
    expect(pickerApplies({ ...ticket, serviceWindow: { hours: 24, open: true, closesAt: Date.now() + 1000 } }, 7, "channel-waba")).toBe(false);
    expect(pickerApplies({ ...ticket, serviceWindow: null }, 7, "channel-waba")).toBe(false);
  });

  it("has every text in the four languages", () => {
    const keys = (l: keyof typeof pickerTexts) => Object.keys(pickerTexts[l].picker).sort();
    expect(Object.keys(pickerTexts)).toEqual(["pt-BR", "en", "es", "ru"]);
    for (const l of ["en", "es", "ru"] as const) expect(keys(l)).toEqual(keys("pt-BR"));
    for (const l of Object.keys(pickerTexts) as Array<keyof typeof pickerTexts>) for (const v of Object.values(pickerTexts[l].picker)) expect(v.trim()).not.toBe("");
  });
});
