/**
 * The chat's template picker's registration: its texts, and the composer replacement that
 * applies on a WhatsApp Cloud ticket the current user holds, open, once its 24-hour window
 * closed (free text would be Meta's 131047). Anywhere else the shell's composer stays.
 */
import { lazy } from "react";
import type { ShellRuntime, UiTicket } from "@openatende/plugin-sdk/ui";
import { pickerTexts } from "./texts-picker";

/** This plugin's channel type, as the connection's `type`. */
export const WABA_TYPE = "channel-waba";

/** Whether the picker replaces the composer for `userId` on `ticket`. */
export function pickerApplies(ticket: UiTicket, userId: number): boolean {
  return ticket.channel === WABA_TYPE && ticket.status === "open" && ticket.userId === userId && ticket.serviceWindow?.open === false;
}

export function registerTemplatePicker(runtime: ShellRuntime): void {
  runtime.addTranslations(pickerTexts);
  runtime.registerComposerReplacement({
    key: "template-picker",
    applies: (ticket) => pickerApplies(ticket, runtime.user.id),
    component: lazy(() => import("./TemplatePicker")),
  });
}
