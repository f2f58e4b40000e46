import { useCallback, useEffect, useRef, useState } from "react";
import { Empty, Spin, Typography } from "antd";
import { useRuntime } from "./runtime";
import { ConversationList } from "./ConversationList";
import { MessagePane } from "./MessagePane";
import { keyOfPush, targetKey, type ChatDirectoryUser, type ChatMessage, type LastMessage, type ConversationKey, type Conversations, type Target } from "./types";

type Pushed = { conversation: ConversationKey; message: ChatMessage };

const query = (t: Target) => ("userId" in t ? { userId: t.userId } : { groupId: t.groupId });

/**
 * The internal chat (/chat-interno): the tenant's other users and the caller's groups on the
 * left, each with its unread count; the open conversation on the right. Every message comes
 * over the socket (the plugin's `message` push to the conversation's members): in the open
 * conversation it is shown and marked read, elsewhere it raises that conversation's count.
 */
export default function ChatPage() {
  const runtime = useRuntime();
  const me = runtime.user.id;
  const [convs, setConvs] = useState<Conversations | null>(null);
  const [open, setOpen] = useState<Target | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const openRef = useRef<string | null>(null);
  const convsRef = useRef<Conversations | null>(null);
  convsRef.current = convs;
  openRef.current = open ? targetKey(open) : null;

  const loadList = useCallback(async () => {
    try {
      // The core's directory (spec §7) says who is active and shows their picture; without it, every user of the tenant is listed.
      const [list, directory] = await Promise.all([
        runtime.api.get<Conversations>("/chat-interno/conversations", { silent: true }),
        runtime.api.get<{ users: ChatDirectoryUser[] }>("/users/chat-interno", { silent: true }).catch(() => null),
      ]);
      if (directory) {
        const active = new Map(directory.users.map((u) => [u.id, u]));
        list.users = list.users.filter((u) => active.has(u.id)).map((u) => ({ ...u, image: active.get(u.id)!.image }));
      }
      setConvs(list);
    } catch (err) {
      runtime.notify.error(err);
    }
  }, [runtime]);

  useEffect(() => void loadList(), [loadList]);

  const setUnread = (key: string, f: (n: number) => number, last?: LastMessage) =>
    setConvs((c) =>
      c && {
        users: c.users.map((u) => (`u:${u.id}` === key ? { ...u, unread: f(u.unread), last: last ?? u.last } : u)),
        groups: c.groups.map((g) => (`g:${g.id}` === key ? { ...g, unread: f(g.unread), last: last ?? g.last } : g)),
      },
    );

  const markRead = useCallback(
    (t: Target) => {
      setUnread(targetKey(t), () => 0);
      void runtime.api.post("/chat-interno/read", query(t), { silent: true }).catch(() => undefined);
    },
    [runtime],
  );

  const append = (m: ChatMessage) => setMessages((list) => (list.some((x) => x.seq === m.seq) ? list : [...list, m].sort((a, b) => a.seq - b.seq)));

  useEffect(
    () =>
      runtime.realtime.on("message", (payload) => {
        const { conversation, message } = payload as Pushed;
        const key = keyOfPush(conversation, me);
        const last = { kind: message.kind, preview: (message.body ?? "").replace(/\s+/g, " ").slice(0, 120), userId: message.userId, at: message.createdAt };
        if (key === openRef.current) {
          append(message);
          setUnread(key, () => 0, last);
          if (message.userId !== me && document.visibilityState === "visible") void runtime.api.post("/chat-interno/read", conversation.kind === "group" ? { groupId: conversation.groupId } : { userId: message.userId }, { silent: true }).catch(() => undefined);
          return;
        }
        const known = key.startsWith("u:") ? true : convsRef.current?.groups.some((g) => `g:${g.id}` === key);
        if (!known) void loadList();
        else setUnread(key, (n) => (message.userId === me ? n : n + 1), last);
      }),
    [runtime, me, loadList],
  );
  useEffect(() => runtime.realtime.on("read", (payload) => setUnread(keyOfPush((payload as { conversation: ConversationKey }).conversation, me), () => 0)), [runtime, me]);
  useEffect(
    () =>
      runtime.realtime.on("groups.changed", (payload) => {
        const p = payload as { groupId: number; deleted?: boolean };
        if (p.deleted && openRef.current === `g:${p.groupId}`) setOpen(null);
        void loadList();
      }),
    [runtime, loadList],
  );

  const choose = async (t: Target) => {
    setOpen(t);
    setMessages([]);
    setHasMore(false);
    setLoading(true);
    try {
      const page = await runtime.api.get<{ messages: ChatMessage[]; hasMore: boolean }>("/chat-interno/messages", { query: query(t) });
      if (openRef.current !== targetKey(t)) return;
      setMessages(page.messages);
      setHasMore(page.hasMore);
      markRead(t);
    } catch {
      setOpen(null);
      void loadList();
    } finally {
      setLoading(false);
    }
  };

  const older = async () => {
    if (!open || !messages.length) return;
    const t = open;
    const page = await runtime.api.get<{ messages: ChatMessage[]; hasMore: boolean }>("/chat-interno/messages", { query: { ...query(t), before: messages[0].seq } });
    if (openRef.current !== targetKey(t)) return;
    setMessages((list) => [...page.messages.filter((m) => !list.some((x) => x.seq === m.seq)), ...list]);
    setHasMore(page.hasMore);
  };

  const names = new Map<number, string>((convs?.users ?? []).map((u) => [u.id, u.name]));
  names.set(me, runtime.user.name);
  const group = open && "groupId" in open ? convs?.groups.find((g) => g.id === open.groupId) : undefined;
  const user = open && "userId" in open ? convs?.users.find((u) => u.id === open.userId) : undefined;

  return (
    <div data-testid="ic-page" style={{ display: "flex", flexDirection: "column", height: "calc(100vh - 120px)", minHeight: 420 }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {runtime.t("title")}
      </Typography.Title>
      {!convs ? (
        <Spin />
      ) : (
        <div style={{ display: "flex", flex: 1, minHeight: 0, border: "1px solid rgba(128,128,128,0.25)", borderRadius: 8, overflow: "hidden" }}>
          <ConversationList convs={convs} open={open} onOpen={(t) => void choose(t)} />
          <div style={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
            {open && (user || group) ? (
              <MessagePane
                key={targetKey(open)}
                target={open}
                title={user?.name ?? group?.name ?? ""}
                subtitle={user ? runtime.t(user.online ? "online" : "offline") : runtime.t("members", { count: group?.userIds.length ?? 0 })}
                inactive={group ? !group.active : false}
                messages={messages}
                hasMore={hasMore}
                loading={loading}
                names={names}
                onOlder={older}
                onSent={append}
              />
            ) : (
              <Empty style={{ margin: "auto" }} description={runtime.t("pick")} />
            )}
          </div>
        </div>
      )}
    </div>
  );
}
