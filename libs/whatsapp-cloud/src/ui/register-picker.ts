/**
 * The chat's template picker's registration: its texts, and the composer replacement that
 * applies on a ticket of the registering plugin's channel (channel-waba, channel-360) the current user holds, open, once its 24-hour window
 * closed (free text would be Meta's 131047). Anywhere else the shell's composer stays.
 */
import { lazy } from "react";
import type { ShellRuntime, UiTicket } from "@openatende/plugin-sdk/ui";
import { pickerTexts } from "./texts-picker";

/** Whether the picker replaces the composer for `userId` on `ticket` of a connection of type `type` (the plugin's id). */
export function pickerApplies(ticket: UiTicket, userId: number, type: string): boolean {
  return ticket.channel === type && ticket.status === "open" && ticket.userId === userId && ticket.serviceWindow?.open === false;
}

export function registerTemplatePicker(runtime: ShellRuntime): void {
  runtime.addTranslations(pickerTexts);
  runtime.registerComposerReplacement({
    key: "template-picker",
    applies: (ticket) => pickerApplies(ticket, runtime.user.id, runtime.pluginId),
    component: lazy(() => import("./TemplatePicker")),
  });
}
