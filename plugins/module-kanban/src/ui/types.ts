/** What the board's routes answer (src/view.ts on the server), as the page reads it. */
export type CardKind = "ticket" | "contact";

export interface Tag {
  id: number;
  name: string;
  color: string;
}

export interface Card {
  id: number;
  kind: CardKind;
  targetId: number;
  columnId: number;
  position: number;
  leadValue: number;
  name: string;
  contactId: number;
  tags: Tag[];
  ticket?: { id: number; protocol: string | null; status: "open" | "pending" | "closed" | "group" | "chatbot"; queueId: number | null; userId: number | null; lastMessage: string | null };
  contact?: { number: string | null; email: string | null };
}

export interface Column {
  id: number;
  name: string;
  color: string;
  position: number;
  count: number;
  leadValue: number;
  cards: Card[];
}

export interface Board {
  version: number;
  filtered: boolean;
  columns: Column[];
  queues: Array<{ id: number; name: string; color: string }>;
  users: Array<{ id: number; name: string }>;
  tags: Tag[];
}

export interface SearchHit {
  id: number;
  name: string;
  detail: string;
  status?: string;
  onBoard: boolean;
}
