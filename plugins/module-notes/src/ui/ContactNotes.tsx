/**
 * The "Notes" section of the attendance screen's contact panel: the notes about the open
 * ticket's contact (its contact notes and the notes of all its tickets), newest first, with
 * author and date, read from GET /api/notes?contactIds=[id] (the module's visibility rule
 * holds: an agent sees the ticket notes they wrote). A page at a time, "show more" for the next.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button, Empty, Spin, Tag, Typography } from "antd";
import { ContactsOutlined, MessageOutlined } from "@ant-design/icons";
import type { ContactPanelSectionProps } from "@openatende/plugin-sdk/ui";
import type { PlatformNote } from "@openatende/plugin-sdk/src/core-api/contract";

/** Notes read per page of the section. */
export const PANEL_PAGE = 10;

interface NotesPage {
  rows: PlatformNote[];
  count: number;
  hasMore: boolean;
}

export default function ContactNotes({ runtime, contactId }: ContactPanelSectionProps) {
  const t = runtime.t;
  const [rows, setRows] = useState<PlatformNote[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const seesAll = runtime.user.isAdmin || runtime.user.profile === "supervisor";

  const load = useCallback(
    async (p: number) => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const r = await runtime.api.get<NotesPage>("/notes", { query: { contactIds: [contactId], page: p, limit: PANEL_PAGE } });
        if (mine !== seq.current) return;
        setRows((prev) => (p === 1 ? r.rows : [...prev, ...r.rows]));
        setHasMore(r.hasMore);
        setPage(p);
      } catch (err) {
        if (mine === seq.current) runtime.notify.error(err);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [runtime, contactId],
  );

  // Another contact (the attendance moved to another ticket): start over.
  useEffect(() => {
    setRows([]);
    void load(1);
  }, [load]);

  const dateFmt = useMemo(() => new Intl.DateTimeFormat(runtime.locale, { dateStyle: "short", timeStyle: "short" }), [runtime.locale]);

  if (loading && !rows.length) {
    return (
      <div style={{ display: "flex", justifyContent: "center", padding: 12 }}>
        <Spin size="small" />
      </div>
    );
  }

  return (
    <div data-testid="contact-notes" style={{ display: "flex", flexDirection: "column", gap: 8 }}>
      {!rows.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="contact-notes-empty">{t("panelEmpty")}</span>} style={{ margin: "4px 0" }} />
      ) : (
        rows.map((n) => (
          <div
            key={`${n.kind}:${n.id}`}
            data-testid={`contact-note-${n.kind}-${n.id}`}
            style={{ borderLeft: `3px solid ${n.kind === "ticket" ? "#1677ff" : "#d97706"}`, padding: "2px 0 2px 8px", minWidth: 0 }}
          >
            <div style={{ display: "flex", alignItems: "center", gap: 6, flexWrap: "wrap" }}>
              {n.kind === "ticket" ? (
                <Tag icon={<MessageOutlined />} color="blue" style={{ marginInlineEnd: 0 }}>
                  {t("kindTicket")} #{n.targetId}
                </Tag>
              ) : (
                <Tag icon={<ContactsOutlined />} color="gold" style={{ marginInlineEnd: 0 }}>
                  {t("kindContact")}
                </Tag>
              )}
              {n.title ? <Typography.Text strong>{n.title}</Typography.Text> : null}
            </div>
            <Typography.Paragraph style={{ margin: "4px 0 2px", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} ellipsis={{ rows: 4, expandable: true, symbol: "…" }}>
              {n.body}
            </Typography.Paragraph>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {n.userName ?? t("noAuthor")} · {dateFmt.format(new Date(n.createdAt))}
            </Typography.Text>
          </div>
        ))
      )}
      {hasMore ? (
        <Button size="small" type="link" loading={loading} onClick={() => void load(page + 1)} data-testid="contact-notes-more" style={{ alignSelf: "flex-start", padding: 0 }}>
          {t("panelMore")}
        </Button>
      ) : null}
      {!seesAll ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="contact-notes-own-only">
          {t("panelOwnOnly")}
        </Typography.Text>
      ) : null}
    </div>
  );
}
