/** A quick message as GET /quick-messages answers it (core/src/quick-messages). */
export type Scope = "global" | "queue" | "personal";

export interface QuickMessageView {
  id: number;
  key: string;
  shortcut: string;
  message: string;
  scope: Scope;
  global: boolean;
  queueIds: number[];
  userId: number | null;
  /** Whether the caller may change or delete it: their personal ones; for admins the global and queue ones too. */
  editable: boolean;
}

export interface QueueOption {
  id: number;
  name: string;
}

/** The API's key rule: no spaces, not starting with "/", up to 100 characters (a leading "/" typed is dropped). */
export const KEY_RE = /^\/?[^\s/][^\s]{0,99}$/u;
