/** The templates the WABA campaign tests put on their connections. */
import type { ChannelTemplate } from "@openatende/plugin-sdk";

export const PROMO: ChannelTemplate = {
  id: "1001",
  name: "promo_natal",
  language: "pt_BR",
  category: "MARKETING",
  status: "APPROVED",
  header: { format: "TEXT", text: "Oferta para {{1}}", example: ["Ana"] },
  body: { text: "Olá {{1}}, seu cupom {{2}} vale até {{3}}.", example: ["Ana Souza", "NATAL10", "25/12"] },
  footer: { text: "Loja Exemplo" },
};

/** The promo's variables for a campaign: the header the contact's first name, the body their name and two literals. */
export const PROMO_CONTENT = { template: { name: PROMO.name, language: PROMO.language }, header: ["{{firstName}}"], body: ["{{name}}", "NATAL10", "25/12"] };

export const PENDING: ChannelTemplate = { ...PROMO, id: "1002", name: "aviso_pendente", status: "PENDING" };
export const IMAGE_HEADER: ChannelTemplate = { ...PROMO, id: "1003", name: "promo_imagem", header: { format: "IMAGE" } };
export const LOCATION_HEADER: ChannelTemplate = { ...PROMO, id: "1004", name: "onde_estamos", header: { format: "LOCATION" } };

/** A template with a button of each kind: a quick reply (payload optional), a fixed URL, a URL with a {{1}} suffix, a call and a copy code. */
export const BUTTONS: ChannelTemplate = {
  id: "1005",
  name: "cupom_botoes",
  language: "pt_BR",
  category: "MARKETING",
  status: "APPROVED",
  body: { text: "Olá {{1}}, seu cupom chegou.", example: ["Ana"] },
  buttons: [
    { type: "QUICK_REPLY", text: "Quero" },
    { type: "URL", text: "Loja", url: "https://loja.test/" },
    { type: "URL", text: "Meu pedido", url: "https://loja.test/p/{{1}}", example: ["123"] },
    { type: "PHONE_NUMBER", text: "Ligar", phoneNumber: "+5511999990000" },
    { type: "COPY_CODE", text: "Copiar cupom", example: ["NATAL10"] },
  ],
};

/** The buttons template's values: the payload and the URL's suffix with the contact's first name, the code fixed. */
export const BUTTONS_CONTENT = {
  template: { name: BUTTONS.name, language: BUTTONS.language },
  header: [],
  body: ["{{firstName}}"],
  buttons: [
    { index: 0, value: "quero-{{firstName}}" },
    { index: 2, value: "{{firstName}}" },
    { index: 4, value: "NATAL10" },
  ],
};
