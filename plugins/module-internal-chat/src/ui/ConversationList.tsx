import { useState } from "react";
import { Avatar, Input, Typography } from "antd";
import { TeamOutlined, UserOutlined } from "@ant-design/icons";
import { useRuntime } from "./runtime";
import { useFileUrl } from "./media";
import type { ChatGroup, Conversations, LastMessage, Target } from "./types";

/** The list's second line: the last message (a file's kind, then its caption), else `detail`. */
function lastLine(last: LastMessage | null, detail: string, t: (k: string) => string): string {
  if (!last) return detail;
  if (last.kind === "text") return last.preview;
  return [t(last.kind === "image" ? "image" : "audio"), last.preview].filter(Boolean).join(": ");
}

function Unread({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span data-testid="ic-unread" style={{ background: "#ff4d4f", color: "#fff", borderRadius: 10, minWidth: 20, height: 20, padding: "0 6px", fontSize: 12, lineHeight: "20px", textAlign: "center", fontWeight: 600 }}>
      {count > 99 ? "99+" : count}
    </span>
  );
}

function UserAvatar({ image }: { image: string | null }) {
  const src = useFileUrl(image, null);
  return <Avatar src={src ?? undefined} icon={<UserOutlined />} />;
}

function GroupAvatar({ group }: { group: ChatGroup }) {
  const src = useFileUrl(group.imageUrl, null);
  return <Avatar src={src ?? undefined} icon={<TeamOutlined />} style={{ background: "#13a8a8", flex: "none" }} />;
}

interface RowProps {
  testKey: string;
  name: string;
  avatar: React.ReactNode;
  detail: string;
  last: LastMessage | null;
  unread: number;
  selected: boolean;
  dim?: boolean;
  onClick(): void;
}

function Row({ testKey, name, avatar, detail, last, unread, selected, dim, onClick }: RowProps) {
  const runtime = useRuntime();
  return (
    <div
      data-testid="ic-conv"
      data-key={testKey}
      data-name={name}
      role="button"
      tabIndex={0}
      onClick={onClick}
      onKeyDown={(e) => e.key === "Enter" && onClick()}
      style={{ display: "flex", gap: 10, alignItems: "center", padding: "8px 12px", cursor: "pointer", background: selected ? "rgba(19,168,168,0.12)" : undefined, opacity: dim ? 0.6 : 1 }}
    >
      {avatar}
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ fontWeight: unread ? 600 : 500, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }} data-testid="ic-conv-name">
          {name}
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", display: "block" }}>
          {lastLine(last, detail, runtime.t)}
        </Typography.Text>
      </div>
      <Unread count={unread} />
    </div>
  );
}

/** The left column: the caller's groups, then the tenant's other users (online first), filtered by a search. */
export function ConversationList({ convs, open, onOpen }: { convs: Conversations; open: Target | null; onOpen(t: Target): void }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [q, setQ] = useState("");
  const match = (name: string) => name.toLowerCase().includes(q.trim().toLowerCase());
  const users = convs.users.filter((u) => match(u.name)).sort((a, b) => Number(b.online) - Number(a.online));
  const groups = convs.groups.filter((g) => match(g.name));
  const heading = (text: string) => (
    <Typography.Text type="secondary" style={{ display: "block", padding: "10px 12px 4px", fontSize: 12, textTransform: "uppercase" }}>
      {text}
    </Typography.Text>
  );
  return (
    <div data-testid="ic-list" style={{ width: 300, flex: "none", borderRight: "1px solid rgba(128,128,128,0.25)", overflowY: "auto" }}>
      <div style={{ padding: 8 }}>
        <Input allowClear placeholder={t("search")} value={q} onChange={(e) => setQ(e.target.value)} data-testid="ic-search" />
      </div>
      {heading(t("groups"))}
      {groups.length ? (
        groups.map((g) => (
          <Row
            key={`g:${g.id}`}
            testKey={`g:${g.id}`}
            name={g.name}
            avatar={<GroupAvatar group={g} />}
            detail={t("members", { count: g.userIds.length })}
            last={g.last}
            unread={g.unread}
            dim={!g.active}
            selected={!!open && "groupId" in open && open.groupId === g.id}
            onClick={() => onOpen({ groupId: g.id })}
          />
        ))
      ) : (
        <Typography.Text type="secondary" style={{ display: "block", padding: "4px 12px", fontSize: 12 }}>
          {t("noGroups")}
        </Typography.Text>
      )}
      {heading(t("people"))}
      {users.length ? (
        users.map((u) => (
          <Row
            key={`u:${u.id}`}
            testKey={`u:${u.id}`}
            name={u.name}
            avatar={
              <span style={{ position: "relative", flex: "none" }}>
                <UserAvatar image={u.image ?? null} />
                <span title={t(u.online ? "online" : "offline")} style={{ position: "absolute", right: 0, bottom: 0, width: 10, height: 10, borderRadius: 5, border: "2px solid #fff", background: u.online ? "#52c41a" : "#bfbfbf" }} />
              </span>
            }
            detail={t(u.online ? "online" : "offline")}
            last={u.last}
            unread={u.unread}
            selected={!!open && "userId" in open && open.userId === u.id}
            onClick={() => onOpen({ userId: u.id })}
          />
        ))
      ) : (
        <Typography.Text type="secondary" style={{ display: "block", padding: "4px 12px", fontSize: 12 }}>
          {t("noUsers")}
        </Typography.Text>
      )}
    </div>
  );
}
