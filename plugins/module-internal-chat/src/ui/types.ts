/** What the chat's routes answer (src/chat-routes.ts, src/group-routes.ts on the server), as the pages read them. */
export interface ChatMessage {
  seq: number;
  userId: number;
  kind: "text" | "image" | "audio";
  body: string | null;
  mediaUrl: string | null;
  mimeType: string | null;
  fileName: string | null;
  size: number | null;
  durationMs: number | null;
  createdAt: string;
}

export interface LastMessage {
  kind: "text" | "image" | "audio";
  preview: string;
  userId: number | null;
  at: string;
}

export interface ChatUser {
  id: number;
  name: string;
  profile: string;
  online: boolean;
  unread: number;
  last: LastMessage | null;
  /** The user's picture, from the core's directory. */
  image?: string | null;
}

export interface ChatGroup {
  id: number;
  name: string;
  imageUrl: string | null;
  active: boolean;
  userIds: number[];
  unread: number;
  last: LastMessage | null;
}

export interface Conversations {
  users: ChatUser[];
  groups: ChatGroup[];
}

/** A conversation as the wire names it (pushes carry it). */
export type ConversationKey = { kind: "direct"; userIds: [number, number] } | { kind: "group"; groupId: number };

/** The open conversation: with a user or in a group. */
export type Target = { userId: number } | { groupId: number };

export interface GroupRow {
  id: number;
  name: string;
  imageUrl: string | null;
  active: boolean;
  userIds: number[];
  createdAt: string;
}

/** The core's GET /users/chat-interno (spec §7): the tenant's active users the caller may talk to, with their picture. */
export interface ChatDirectoryUser {
  id: number;
  name: string;
  profile: string;
  status: "online" | "offline";
  image: string | null;
}

export interface TenantUser {
  id: number;
  name: string;
  profile: string;
  online: boolean;
}

/** "u:<id>" or "g:<id>": one key per conversation in the page's maps. */
export const targetKey = (t: Target): string => ("userId" in t ? `u:${t.userId}` : `g:${t.groupId}`);

/** The key of a pushed conversation as the user `me` sees it. */
export function keyOfPush(c: ConversationKey, me: number): string {
  if (c.kind === "group") return `g:${c.groupId}`;
  return `u:${c.userIds[0] === me ? c.userIds[1] : c.userIds[0]}`;
}
