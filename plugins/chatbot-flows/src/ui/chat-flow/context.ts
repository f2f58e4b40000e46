import { createContext, useContext } from "react";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { NodeData, NodeType, RunState } from "../../model";
import type { Named } from "./api";

/** What the builder's node components read besides their own data. */
export interface BuilderCtx {
  rt: ShellRuntime;
  /** Translates a chat-flow text (its key without the "chatFlow." prefix). */
  tr(key: string, vars?: Record<string, unknown>): string;
  direction: "TB" | "LR";
  /** The selected run's last state of each node (colours the nodes). */
  runStates: Map<string, RunState>;
  /** Nodes the graph rules find wrong (drawn with a dashed red border until fixed). */
  invalid: Set<string>;
  queues: Named[];
  users: Named[];
}

export const BuilderContext = createContext<BuilderCtx | null>(null);

export function useBuilder(): BuilderCtx {
  const c = useContext(BuilderContext);
  if (!c) throw new Error("chat-flow: node drawn outside the builder");
  return c;
}

/** A chat-flow text: its keys live under `chatFlow` in the plugin's translations. */
export const chatFlowT = (rt: ShellRuntime) => (key: string, vars?: Record<string, unknown>) => rt.t(`chatFlow.${key}`, vars);

export const NODE_COLORS: Record<NodeType, string> = {
  start: "#13a8a8",
  message: "#1677ff",
  question: "#722ed1",
  menu: "#fa8c16",
  condition: "#eb2f96",
  transfer: "#52c41a",
  webhook: "#2f54eb",
  end: "#8c8c8c",
};

export const RUN_COLORS: Record<RunState, string> = { success: "#52c41a", error: "#ff4d4f", warning: "#faad14", running: "#1677ff" };

const cut = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** One line saying what a node does, drawn under its name. */
export function summaryOf(data: NodeData, c: Pick<BuilderCtx, "tr" | "queues" | "users">): string {
  const { tr } = c;
  const nameOf = (list: Named[], id: number | null) => (id == null ? null : (list.find((x) => x.id === id)?.name ?? `#${id}`));
  switch (data.type) {
    case "start":
      return tr("sum.start");
    case "message": {
      const first = data.interactions.find((i) => i.type === "text");
      const text = first && first.type === "text" && first.text.trim() ? cut(first.text.trim()) : "";
      return [text, tr("sum.interactions", { count: data.interactions.length })].filter(Boolean).join(" · ");
    }
    case "question":
      return data.text.trim() ? cut(data.text.trim()) : tr("sum.empty");
    case "menu": {
      const head = (data.title || data.text).trim();
      return [head ? cut(head, 40) : "", tr(data.style === "list" ? "sum.list" : "sum.buttons")].filter(Boolean).join(" · ");
    }
    case "condition":
      return data.conditions.length ? data.conditions.map((x) => tr(`cond.${x.type}`)).join(data.match === "all" ? " + " : " | ") : tr("sum.empty");
    case "transfer": {
      const q = nameOf(c.queues, data.queueId);
      const u = nameOf(c.users, data.userId);
      return [q && tr("sum.queue", { name: q }), u && tr("sum.user", { name: u })].filter(Boolean).join(" · ") || tr("sum.empty");
    }
    case "webhook":
      return data.url ? `${data.method} ${cut(data.url, 40)}` : tr("sum.empty");
    case "end":
      return [data.message?.trim() ? cut(data.message.trim(), 40) : "", data.close ? tr("sum.closes") : tr("sum.keepsOpen")].filter(Boolean).join(" · ");
  }
}
