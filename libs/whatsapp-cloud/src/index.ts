/**
 * @openatende/whatsapp-cloud: the WhatsApp Cloud API channel written once. A plugin gives its
 * manifest and its CloudProvider (provider.ts) to cloudChannelPlugin (plugin.ts); the UI pieces
 * both providers share are under ./ui (imported by path from a plugin's UI register).
 */
export { cloudChannelPlugin, type CloudManifest } from "./plugin";
export { CODE_NAMES, codeOf, redact, webhookUrl, WABA_CODES, type CloudProvider, type CloudSettings, type CodeName, type Headers, type ProviderCall, type SettingsRead, type WebhookContext } from "./provider";
export type { ProviderProfile } from "./profile";
export { metaTemplateApi, qs, resumableUpload, type TemplateApi, type TemplatePage } from "./template-api";
export { verificationAnswer, SIGNATURE_HEADER, MAX_DELIVERY_BYTES } from "./webhook";
export { heldId, LANES_PER_CONNECTION } from "./deliveries";
export { GraphClient, GraphError, DEFAULT_RETRY_MS } from "./graph";
export { CloudChannel, waIdOf } from "./channel";
