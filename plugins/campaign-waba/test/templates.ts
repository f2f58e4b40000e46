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
