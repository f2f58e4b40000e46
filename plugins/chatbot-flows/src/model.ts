/**
 * The shapes of chatbot-flows (spec §3 Auto-reply flow, Flow nodes, Flow bot settings; §5 Auto-reply
 * and Flow builder rules), shared by the server (validation, storage, engine) and the UI (builder,
 * /auto-resposta). One engine runs both kinds of flow:
 *
 * - **chat** flows, drawn in the builder: a graph of nodes (exactly one `start`) joined by edges;
 *   no edge joins a node to itself and the graph has no cycle (graph.ts checks it, in the
 *   builder and again on the server on save and import).
 * - **entry** and **closure** auto-reply flows: steps (exactly one initial step), each a message
 *   and actions (key → next step, queue, user, return message). Entry flows run on tickets a
 *   connection or queue hands to the bot; closure flows when an agent closes a ticket.
 *
 * A flow's JSON export is `FlowExport` (versioned); import validates it fully (clear errors).
 */

export const FLOW_KINDS = ["chat", "entry", "closure"] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

export const DISTRIBUTIONS = ["none", "balance", "random"] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

/** Flow bot settings (spec §3). */
export interface BotSettings {
  /** Invalid answers allowed at one node/step before the hand-off (1–10, default 3). */
  maxAttempts: number;
  /** Minutes the bot waits for an answer before the hand-off (1–1440, default 10). */
  waitMinutes: number;
  /** How a hand-off to a queue picks a user (the core's `distribute`). */
  distribute: Distribution;
  /** Where the ticket goes when attempts run out or the wait time passes (neither: the ticket's queue, pending). */
  handoffQueueId: number | null;
  handoffUserId: number | null;
  /** Sent on an invalid answer when the node/step has no retry message of its own ("" = send the question again). */
  invalidMessage: string;
}

export const DEFAULT_BOT_SETTINGS: BotSettings = { maxAttempts: 3, waitMinutes: 10, distribute: "none", handoffQueueId: null, handoffUserId: null, invalidMessage: "" };

// --- chat flows: nodes and edges ------------------------------------------------------------

export const NODE_TYPES = ["start", "message", "question", "menu", "condition", "transfer", "webhook", "end"] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** A file of the tenant stored through the core (platform.files.upload), at most 5 MB (spec §9 flow media). */
export interface FlowMedia {
  path: string;
  url: string;
  mimeType: string;
  fileName: string;
  size: number;
}
export const FLOW_MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** What a message node sends, in order: texts, files, pauses. `{{name}}`, `{{protocol}}` and `{{var.<name>}}` are filled in. */
export type Interaction = { type: "text"; text: string } | { type: "media"; media: FlowMedia; caption?: string } | { type: "delay"; seconds: number };

/** A condition on the customer's latest message, the time, or the contact. */
export type Condition =
  | { type: "keyword"; values: string[]; exact?: boolean }
  | { type: "regex"; pattern: string; flags?: string }
  | { type: "businessHours"; open: boolean }
  | { type: "contactField"; field: "name" | "number" | "email"; operator: "equals" | "contains" | "empty" | "notEmpty"; value?: string };

export interface MenuOption {
  /** The edge handle of this option (sourceHandle). */
  id: string;
  title: string;
  description?: string;
}
export interface MenuSection {
  title: string;
  rows: MenuOption[];
}

/** The webhook fields a webhook node may send (spec §3 "Webhook fields"). */
export const WEBHOOK_FIELDS = ["name", "greeting", "protocol", "email", "phoneNumber", "kanban", "user", "userEmail"] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];

export type NodeData =
  | { type: "start"; name: string }
  | { type: "message"; name: string; interactions: Interaction[] }
  /** Asks and waits for a free answer; saved to the contact's name/e-mail or a flow variable. */
  | { type: "question"; name: string; text: string; saveTo: "contact.name" | "contact.email" | `var.${string}`; validate: "any" | "email" | "number"; retryMessage?: string }
  /** Buttons (up to 3 options) or a list (sections with rows); each option is an edge handle. Channels without them get a numbered text menu. */
  | { type: "menu"; name: string; style: "buttons" | "list"; title: string; text: string; footer?: string; buttonText?: string; options: MenuOption[]; sections: MenuSection[]; retryMessage?: string }
  /** Handles "true" and "false". */
  | { type: "condition"; name: string; match: "all" | "any"; conditions: Condition[] }
  | { type: "transfer"; name: string; queueId: number | null; userId: number | null; message?: string }
  /** Handles "success" and "error". The URL is checked by the outbound URL policy. */
  | { type: "webhook"; name: string; url: string; method: "POST" | "PUT" | "GET"; fields: WebhookField[]; headers?: Record<string, string> }
  | { type: "end"; name: string; message?: string; close: boolean };

export interface FlowNode {
  id: string;
  type: NodeType;
  position: { x: number; y: number };
  data: NodeData;
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  /** menu: an option id; condition: "true" | "false"; webhook: "success" | "error"; others: null. */
  sourceHandle: string | null;
}

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
  viewport?: { x: number; y: number; zoom: number };
}

// --- auto-reply flows: steps and actions ----------------------------------------------------

export interface AutoReplyAction {
  id: string;
  /** What the customer types (compared trimmed, case- and accent-insensitive). */
  key: string;
  nextStepId: string | null;
  queueId: number | null;
  userId: number | null;
  returnMessage: string | null;
}

export interface AutoReplyStep {
  id: string;
  initial: boolean;
  message: string;
  actions: AutoReplyAction[];
}

// --- the flow record ------------------------------------------------------------------------

export interface Flow {
  id: number;
  kind: FlowKind;
  name: string;
  description: string;
  active: boolean;
  /** Auto-reply test phone: when set, the flow runs only for this contact number (others go straight to the queue). */
  testPhone: string | null;
  settings: BotSettings;
  /** chat flows */
  graph: FlowGraph | null;
  /** entry / closure flows */
  steps: AutoReplyStep[] | null;
  createdAt: string;
  updatedAt: string;
}

/** The JSON a flow downloads as and imports from. */
export interface FlowExport {
  format: "openatende-flow";
  version: 1;
  flow: Pick<Flow, "kind" | "name" | "description" | "settings" | "graph" | "steps" | "testPhone">;
}

/** Run states of a node in a flow's recent runs (spec §4 "Flow node run states"). */
export const RUN_STATES = ["success", "error", "warning", "running"] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface RunStep {
  nodeId: string;
  state: RunState;
  detail: string | null;
  at: string;
}

/** One conversation of a flow (a session): its ticket, where it is, how it ended. */
export interface FlowRun {
  id: number;
  flowId: number;
  ticketId: number;
  contactName: string;
  status: "running" | "handedOff" | "closed" | "expired" | "cancelled";
  steps: RunStep[];
  startedAt: string;
  endedAt: string | null;
}

/** What the connection and queue form sections store (the plugin's own data); the entry flow is bound in the core. */
export interface FlowBindingValue {
  entryFlowId: number | null;
  closureFlowId: number | null;
}
