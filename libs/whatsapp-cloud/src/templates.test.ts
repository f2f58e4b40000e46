import type { ChannelTemplate } from "@openatende/plugin-sdk";
import { buttonSubTypes, metaTemplateBody, templateFromMeta } from "./template-meta";
import { readTemplateMessage, templateObject, type TemplateMessage } from "./template-send";
import { templateStatusOf } from "./template-status";

const ORDER: Omit<ChannelTemplate, "id" | "status" | "rejectedReason"> = {
  name: "pedido_enviado",
  language: "pt_BR",
  category: "UTILITY",
  header: { format: "TEXT", text: "Pedido {{1}}", example: ["#123"] },
  body: { text: "Olá {{1}}, seu pedido sai {{2}}.", example: ["Ana", "hoje"] },
  footer: { text: "Loja Teste" },
  buttons: [
    { type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}", example: ["https://loja.test/r/abc"] },
    { type: "QUICK_REPLY", text: "Falar com alguém" },
    { type: "COPY_CODE", text: "Copiar cupom", example: ["VOLTA10"] },
    { type: "PHONE_NUMBER", text: "Ligar", phoneNumber: "+5511999990000" },
  ],
};

describe("templates in Meta's words", () => {
  it("a new template becomes Meta's create body and reads back the same", () => {
    const body = metaTemplateBody(ORDER);
    expect(body).toEqual({
      name: "pedido_enviado",
      language: "pt_BR",
      category: "UTILITY",
      components: [
        { type: "HEADER", format: "TEXT", text: "Pedido {{1}}", example: { header_text: ["#123"] } },
        { type: "BODY", text: "Olá {{1}}, seu pedido sai {{2}}.", example: { body_text: [["Ana", "hoje"]] } },
        { type: "FOOTER", text: "Loja Teste" },
        {
          type: "BUTTONS",
          buttons: [
            { type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}", example: ["https://loja.test/r/abc"] },
            { type: "QUICK_REPLY", text: "Falar com alguém" },
            { type: "COPY_CODE", example: "VOLTA10" },
            { type: "PHONE_NUMBER", text: "Ligar", phone_number: "+5511999990000" },
          ],
        },
      ],
    });
    const back = templateFromMeta({ ...body, id: 991, status: "APPROVED" });
    expect(back).toMatchObject({ id: "991", status: "APPROVED", rejectedReason: null, header: ORDER.header, body: ORDER.body, footer: ORDER.footer });
    expect(buttonSubTypes(back)).toEqual(["url", "quick_reply", "copy_code", null]);
  });
});

describe("template sends", () => {
  const msg = (over: Partial<TemplateMessage> = {}): TemplateMessage => ({ kind: "template", name: "pedido_enviado", language: "pt_BR", ...over });
  const deps = (def: ChannelTemplate | null = { ...ORDER, status: "APPROVED" }) => ({
    mediaObject: async () => ({ id: "media-1" }),
    definition: async () => def,
  });

  it("fills header, body and buttons (their sub_type read from the template) in Meta's order", async () => {
    const m = msg({ components: { header: { text: ["#9"] }, body: ["Bia", "amanhã"], buttons: [{ index: 0, value: "xyz" }, { index: 2, value: "BIA5" }, { index: 1, value: "talk" }] } });
    expect(await templateObject(m, readTemplateMessage(m), deps())).toEqual({
      name: "pedido_enviado",
      language: { code: "pt_BR" },
      components: [
        { type: "header", parameters: [{ type: "text", text: "#9" }] },
        { type: "body", parameters: [{ type: "text", text: "Bia" }, { type: "text", text: "amanhã" }] },
        { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "xyz" }] },
        { type: "button", sub_type: "copy_code", index: "2", parameters: [{ type: "coupon_code", coupon_code: "BIA5" }] },
        { type: "button", sub_type: "quick_reply", index: "1", parameters: [{ type: "payload", payload: "talk" }] },
      ],
    });
  });

  it("a media header goes as the file's kind; the older `parameters` fill the body; no variables, no components", async () => {
    const m = msg({ components: { header: { media: { path: "x.png", mimeType: "image/png" } } }, parameters: ["Caio"] });
    expect((await templateObject(m, readTemplateMessage(m), deps())).components).toEqual([
      { type: "header", parameters: [{ type: "image", image: { id: "media-1" } }] },
      { type: "body", parameters: [{ type: "text", text: "Caio" }] },
    ]);
    expect(await templateObject(msg(), readTemplateMessage(msg()), deps())).toEqual({ name: "pedido_enviado", language: { code: "pt_BR" } });
  });

  it.each([
    [{ name: "Pedido Enviado" }, "message.name"],
    [{ language: "portuguese" }, "message.language"],
    [{ components: { body: ["ok", ""] } }, "message.components.body.1"],
    [{ components: { buttons: [{ index: 12, value: "x" }] } }, "message.components.buttons.0.index"],
    [{ components: { header: { text: ["x".repeat(61)] } } }, "message.components.header.text.0"],
  ] as Array<[Partial<TemplateMessage>, string]>)("refuses %j naming %s", (over, field) => {
    expect(() => readTemplateMessage(msg(over))).toThrow(expect.objectContaining({ type: "ERR_WABA_TEMPLATE_INVALID", code: 400, data: expect.objectContaining({ field }) }));
  });

  it("a button value for a call button, or for a template Meta does not have, is refused before sending", async () => {
    const phone = msg({ components: { buttons: [{ index: 3, value: "x" }] } });
    await expect(templateObject(phone, readTemplateMessage(phone), deps())).rejects.toMatchObject({ type: "ERR_WABA_TEMPLATE_INVALID", data: { field: "message.components.buttons.0.index" } });
    await expect(templateObject(phone, readTemplateMessage(phone), deps(null))).rejects.toMatchObject({ type: "ERR_WABA_TEMPLATE_NOT_FOUND", code: 404 });
  });
});

describe("template status webhooks", () => {
  const change = (value: Record<string, unknown>, field = "message_template_status_update") => ({ wabaId: "200", field, value });

  it("reads Meta's event, template and reasons (NONE dropped)", () => {
    expect(templateStatusOf(change({ event: "REJECTED", message_template_id: 7788, message_template_name: "promo", message_template_language: "pt_BR", reason: "INVALID_FORMAT", rejection_info: { reason: "Variáveis sem exemplo", recommendation: "Adicione exemplos" } }), 5)).toEqual({
      id: "7788",
      name: "promo",
      language: "pt_BR",
      status: "REJECTED",
      reason: "INVALID_FORMAT — Variáveis sem exemplo — Adicione exemplos",
      at: 5,
    });
    expect(templateStatusOf(change({ event: "APPROVED", message_template_id: "1", message_template_name: "a", message_template_language: "en", reason: "NONE" }))?.reason).toBeNull();
  });

  it("ignores other fields and changes without a template id or event", () => {
    expect(templateStatusOf(change({ event: "APPROVED", message_template_id: "1" }, "messages"))).toBeNull();
    expect(templateStatusOf(change({ event: "APPROVED" }))).toBeNull();
    expect(templateStatusOf(change({ message_template_id: "1", event: "<b>" }))).toBeNull();
  });
});
