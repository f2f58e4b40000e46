/**
 * The chat-flow screens' texts in the four languages, under the `chatFlow` key of the plugin's
 * translations (register.tsx: `runtime.addTranslations(chatFlowTexts)`; the screens read them
 * as `chatFlow.<key>`, so they never meet the auto-reply screens' keys).
 */
import { en } from "./texts.en";
import { es } from "./texts.es";
import { ptBR, type ChatFlowTexts } from "./texts.pt-BR";
import { ru } from "./texts.ru";

export type { ChatFlowTexts };

export const chatFlowTexts: Record<"pt-BR" | "en" | "es" | "ru", { chatFlow: ChatFlowTexts }> = {
  "pt-BR": { chatFlow: ptBR },
  en: { chatFlow: en },
  es: { chatFlow: es },
  ru: { chatFlow: ru },
};
