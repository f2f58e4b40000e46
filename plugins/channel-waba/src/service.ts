/**
 * WhatsApp's official Cloud API (WABA): the library's Cloud API channel
 * (@openatende/whatsapp-cloud) with Meta's provider (provider.ts). Each connection is one phone
 * number of a WhatsApp Business Account; Meta posts its messages and statuses to
 * `<public URL>/api/waba/<connection token>/webhook`, signed with the app secret.
 */
import { cloudChannelPlugin } from "@openatende/whatsapp-cloud";
import { wabaProvider } from "./provider";

export const wabaChannelPlugin = cloudChannelPlugin(require("../package.json"), wabaProvider);

export default wabaChannelPlugin;
