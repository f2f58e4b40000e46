import { defineUi } from "@openatende/plugin-sdk/ui";
import { chatFlowTexts } from "./chat-flow/texts";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";
import { chatbotFormSection } from "./form-section/section";

/** The auto-reply menu entry's icon: a speech bubble with a reply arrow, in the plugin's colour. */
export const MENU_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='16'%20height='16'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%2313a8a8'%20stroke-width='2'%20stroke-linecap='round'%20stroke-linejoin='round'%3E%3Cpath%20d='M21%2012a8%208%200%200%201-11.6%207.1L4%2021l1.9-5.4A8%208%200%201%201%2021%2012z'/%3E%3Cpath%20d='M13%209l-3%203%203%203M10%2012h5'/%3E%3C/svg%3E";

/**
 * The chatbot flows' UI (admins only: the manifest's profiles): /auto-resposta and its menu
 * entry in the main area (spec §2), the chat-flow builder as the settings child
 * /configuracoes/chat-flow, and the Chatbot section of every connection form (all channel
 * types) and of the queue form, where the entry and closure flows are chosen.
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  // The builder's texts, under their own `chatFlow` key (chat-flow/README.md).
  runtime.addTranslations(chatFlowTexts);
  runtime.addRoute({ path: "auto-resposta", access: "admin", load: () => import("./auto-resposta/AutoRespostaPage") });
  runtime.addMenuItem({ key: "auto-resposta", path: "auto-resposta", access: "admin", label: labels("menu"), icon: MENU_ICON });
  runtime.addSettingsSection({ path: "chat-flow", label: labels("settingsChatFlow"), load: () => import("./chat-flow/ChatFlowPage") });
  runtime.registerConnectionFormSection(chatbotFormSection("connection"));
  runtime.registerQueueFormSection(chatbotFormSection("queue"));
});
