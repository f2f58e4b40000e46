import type { FormSectionDefinition } from "@openatende/plugin-sdk/ui";
import type { FlowBindingValue } from "../../model";
import { getBinding, putBinding, type BindingScope } from "../auto-resposta/api";
import { labels } from "../texts";
import { ChatbotSection } from "./ChatbotSection";

const idOrNull = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : null);
const keyOf = (v: Record<string, unknown>) => `${idOrNull(v.entryFlowId) ?? "-"}:${idOrNull(v.closureFlowId) ?? "-"}`;

/**
 * The Chatbot section of a form (connection or queue): loads the object's binding and saves it
 * once the core saved the object, only when it changed. So a form saved for another reason
 * never writes the binding again (a bound flow switched off since would be refused), and a
 * section never loaded nor touched (its value empty) can never clear one.
 */
export function chatbotFormSection(scope: BindingScope): FormSectionDefinition {
  return {
    key: "chatbot",
    label: labels("sectionChatbot"),
    component: ChatbotSection,
    async load(id, runtime) {
      const b = await getBinding(runtime.api, scope, id);
      const value = { entryFlowId: b?.entryFlowId ?? null, closureFlowId: b?.closureFlowId ?? null };
      return { ...value, loaded: keyOf(value) };
    },
    async save(id, value, runtime) {
      if (!("entryFlowId" in value) && !("closureFlowId" in value)) return;
      if (value.loaded === keyOf(value)) return;
      const body: FlowBindingValue = { entryFlowId: idOrNull(value.entryFlowId), closureFlowId: idOrNull(value.closureFlowId) };
      await putBinding(runtime.api, scope, id, body);
    },
  };
}
