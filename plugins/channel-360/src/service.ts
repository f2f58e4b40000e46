/**
 * WhatsApp through 360dialog (spec §1/§3, the "360" connection type): the library's Cloud API
 * channel (@openatende/whatsapp-cloud) with 360dialog's provider (provider.ts). Each connection
 * is one number's API key; on connect its webhook is registered at 360dialog as
 * `<public URL>/api/d360/<connection token, hex>/webhook` with a secret header.
 */
import { cloudChannelPlugin } from "@openatende/whatsapp-cloud";
import { d360Provider } from "./provider";

export const d360ChannelPlugin = cloudChannelPlugin(require("../package.json"), d360Provider);

export default d360ChannelPlugin;
