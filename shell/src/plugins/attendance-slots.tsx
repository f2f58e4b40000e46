/**
 * The attendance screen's plugin slots: composer actions (buttons beside send), a composer
 * replacement (drawn instead of the composer when it applies, e.g. a closed 24-hour window),
 * and the closing dialogs (asked in turn before a ticket closes; any one cancelled keeps it
 * open).
 */
import { useState, type ReactNode } from "react";
import { makeAutoObservable } from "mobx";
import { observer } from "mobx-react-lite";
import { Button, Tooltip } from "antd";
import { AppstoreAddOutlined } from "@ant-design/icons";
import type { ClosingDialogDefinition, UiTicket } from "@openatende/plugin-sdk/ui";
import { useRoot } from "../app/context";
import type { RootStore } from "../app/root";
import type { Owned } from "./registry";
import { labelOf, ownerRuntime, useSlot } from "./slots";

/** What a slot is told of the open ticket. */
export function uiTicketOf(t: { id: number; status: string; contactId: number; connectionId?: number | null; queueId: number | null; userId: number | null; isGroup?: boolean; channel?: string | null; serviceWindow?: UiTicket["serviceWindow"] }): UiTicket {
  return { id: t.id, status: t.status as UiTicket["status"], contactId: t.contactId, connectionId: t.connectionId ?? null, queueId: t.queueId, userId: t.userId, isGroup: !!t.isGroup, channel: t.channel ?? null, serviceWindow: t.serviceWindow ?? null };
}

/** Buttons of the plugins' composer actions; pressing one mounts its component until it closes. */
export const ComposerActions = observer(function ComposerActions(props: { ticket: UiTicket; text: string; setText(t: string): void; send(body: string): Promise<void> }) {
  const root = useRoot();
  const actions = useSlot("composerActions");
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      {actions.map((a) => {
        const k = `${a.pluginId}:${a.key}`;
        const rt = ownerRuntime(root, a.pluginId);
        const C = a.component;
        if (!rt) return null;
        const label = labelOf(a.label, root.session.locale);
        return (
          <span key={k}>
            <Tooltip title={label}>
              <Button type="text" icon={a.icon ?? <AppstoreAddOutlined />} aria-label={label} data-testid={`composer-action-${a.pluginId}-${a.key}`} onClick={() => setOpen(k)} />
            </Tooltip>
            {open === k ? <C runtime={rt} ticket={props.ticket} text={props.text} setText={props.setText} send={props.send} onClose={() => setOpen(null)} /> : null}
          </span>
        );
      })}
    </>
  );
});

/**
 * The first plugin replacement that applies to the ticket, to draw instead of the composer;
 * null when none does (the caller is an observer: a plugin switched on or off shows at once).
 */
export function useComposerReplacement(ticket: UiTicket | null): ReactNode | null {
  const root = useRoot();
  const list = useSlot("composerReplacements");
  if (!ticket) return null;
  const r = list.find((x) => {
    try {
      return x.applies(ticket);
    } catch {
      return false;
    }
  });
  const rt = r && ownerRuntime(root, r.pluginId);
  if (!r || !rt) return null;
  const C = r.component;
  return (
    <div data-testid={`composer-replacement-${r.pluginId}-${r.key}`}>
      <C runtime={rt} ticket={ticket} />
    </div>
  );
}

/** The closing dialogs being asked: one ticket at a time, each dialog in turn. */
class ClosingQueue {
  ticket: UiTicket | null = null;
  pending: Owned<ClosingDialogDefinition>[] = [];
  private resolve: ((closed: boolean) => void) | null = null;
  constructor() {
    makeAutoObservable<ClosingQueue, "resolve">(this, { resolve: false });
  }
  /** Asks the plugins' dialogs that apply before `ticket` closes: true when every one let it close. */
  ask(root: RootStore, ticket: UiTicket): Promise<boolean> {
    const enabled = new Set(root.plugins.enabled.map((p) => p.id));
    const list = root.plugins.slots.closingDialogs.filter((d) => enabled.has(d.pluginId) && (!d.applies || d.applies(ticket)));
    if (!list.length) return Promise.resolve(true);
    this.resolve?.(false);
    this.ticket = ticket;
    this.pending = list;
    return new Promise((res) => (this.resolve = res));
  }
  done() {
    this.pending = this.pending.slice(1);
    if (!this.pending.length) this.finish(true);
  }
  cancel() {
    this.finish(false);
  }
  private finish(closed: boolean) {
    const r = this.resolve;
    this.resolve = null;
    this.ticket = null;
    this.pending = [];
    r?.(closed);
  }
}

export const closingDialogs = new ClosingQueue();

/** Draws the closing dialog being asked (mounted once in the attendance screen). */
export const ClosingDialogHost = observer(function ClosingDialogHost() {
  const root = useRoot();
  const d = closingDialogs.pending[0];
  const ticket = closingDialogs.ticket;
  const rt = d && ownerRuntime(root, d.pluginId);
  if (!d || !ticket || !rt) return null;
  const C = d.component;
  return (
    <div data-testid={`closing-dialog-${d.pluginId}-${d.key}`}>
      <C runtime={rt} ticket={ticket} done={() => closingDialogs.done()} cancel={() => closingDialogs.cancel()} />
    </div>
  );
});
