/** The provider of a connection's settings. */
import type { OutboundPolicy } from "@openatende/plugin-sdk";
import type { SmsSettings } from "../settings";
import { ComteleProvider } from "./comtele";
import type { SmsProvider } from "./provider";

export function createProvider(settings: SmsSettings, policy: OutboundPolicy): SmsProvider {
  switch (settings.provider) {
    case "comtele":
      return new ComteleProvider({ token: settings.token, sender: settings.sender, apiUrl: settings.apiUrl, policy });
  }
}

export * from "./provider";
