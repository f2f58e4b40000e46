import { useEffect, useState } from "react";
import { Form, Input, InputNumber, List, Modal, Radio, Select, Tag, Typography } from "antd";
import { COLOR_PATTERN, COLUMN_NAME_MAX, DEFAULT_COLUMN_COLOR, LEAD_VALUE_MAX } from "../board";
import { columnNameProblem, leadValueOk } from "./rules";
import { useRuntime } from "./runtime";
import type { Card, CardKind, Column, SearchHit } from "./types";

type Close = (changed?: boolean) => void;

/** New column, or a column's name and colour. */
export function ColumnModal({ column, onClose }: { column?: Column; onClose: Close }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [name, setName] = useState(column?.name ?? "");
  const [color, setColor] = useState(column?.color ?? DEFAULT_COLUMN_COLOR);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const problem = columnNameProblem(name);
  const save = async () => {
    setTried(true);
    if (problem || !COLOR_PATTERN.test(color)) return;
    setBusy(true);
    try {
      if (column) await runtime.api.patch("/kanban/columns", { id: column.id, name: name.trim(), color });
      else await runtime.api.post("/kanban/columns", { name: name.trim(), color });
      onClose(true);
    } catch (err) {
      runtime.notify.error(err);
      setBusy(false);
    }
  };
  return (
    <Modal open title={column ? t("rename") : t("newColumn")} okText={t("save")} cancelText={t("cancel")} onOk={() => void save()} onCancel={() => onClose()} confirmLoading={busy} destroyOnHidden>
      <Form layout="vertical" onFinish={() => void save()}>
        <Form.Item label={t("columnName")} required validateStatus={tried && problem ? "error" : undefined} help={tried && problem ? t(problem, { max: COLUMN_NAME_MAX }) : undefined}>
          <Input autoFocus value={name} onChange={(e) => setName(e.target.value)} maxLength={COLUMN_NAME_MAX} data-testid="kanban-column-name-input" onPressEnter={() => void save()} />
        </Form.Item>
        <Form.Item label={t("columnColor")}>
          <input type="color" value={color} onChange={(e) => setColor(e.target.value)} data-testid="kanban-column-color-input" style={{ width: 56, height: 32, border: "none", background: "none", padding: 0 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Deletes a column; one with cards asks where they go (the server refuses to drop them). */
export function DeleteColumnModal({ column, columns, onClose }: { column: Column; columns: Column[]; onClose: Close }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const others = columns.filter((c) => c.id !== column.id);
  const [moveTo, setMoveTo] = useState<number | undefined>(others[0]?.id);
  const hasCards = column.count > 0 || column.cards.length > 0;
  const run = async () => {
    try {
      await runtime.api.delete("/kanban/columns", { query: { id: column.id, moveTo: hasCards ? moveTo : undefined } });
      onClose(true);
    } catch (err) {
      runtime.notify.error(err);
    }
  };
  return (
    <Modal open title={t("deleteColumn")} okText={t("delete")} okButtonProps={{ danger: true, disabled: hasCards && !moveTo }} cancelText={t("cancel")} onOk={() => void run()} onCancel={() => onClose()} destroyOnHidden>
      <Typography.Paragraph>{t("deleteColumnConfirm", { name: column.name })}</Typography.Paragraph>
      {hasCards ? (
        <>
          <Typography.Paragraph>{t("deleteColumnMoveTo", { count: column.count })}</Typography.Paragraph>
          <Select style={{ width: "100%" }} value={moveTo} onChange={setMoveTo} options={others.map((c) => ({ value: c.id, label: c.name }))} />
        </>
      ) : null}
    </Modal>
  );
}

/** Puts a ticket or contact on the board: search (at least 2 letters), choose, column, value. */
export function AddCardModal({ columns, columnId, onClose }: { columns: Column[]; columnId?: number; onClose: Close }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [kind, setKind] = useState<CardKind>("ticket");
  const [q, setQ] = useState("");
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [chosen, setChosen] = useState<SearchHit | null>(null);
  const [column, setColumn] = useState<number | undefined>(columnId ?? columns[0]?.id);
  const [lead, setLead] = useState<number | null>(0);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setChosen(null);
    if (q.trim().length < 2) {
      setHits(null);
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      runtime.api
        .get<SearchHit[]>("/kanban/search", { query: { kind, q: q.trim() }, silent: true, signal: ctl.signal })
        .then(setHits)
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [q, kind, runtime]);

  const save = async () => {
    setTried(true);
    if (!chosen || !column || !leadValueOk(lead ?? 0)) return;
    setBusy(true);
    try {
      await runtime.api.post("/kanban/cards", { kind, targetId: chosen.id, columnId: column, leadValue: lead ?? 0 });
      onClose(true);
    } catch (err) {
      runtime.notify.error(err);
      setBusy(false);
    }
  };

  return (
    <Modal open title={t("addCard")} okText={t("add")} cancelText={t("cancel")} onOk={() => void save()} onCancel={() => onClose()} confirmLoading={busy} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t("kind")}>
          <Radio.Group value={kind} onChange={(e) => setKind(e.target.value as CardKind)} optionType="button" data-testid="kanban-card-kind">
            <Radio.Button value="ticket">{t("kindTicket")}</Radio.Button>
            <Radio.Button value="contact">{t("kindContact")}</Radio.Button>
          </Radio.Group>
        </Form.Item>
        <Form.Item required validateStatus={tried && !chosen ? "error" : undefined} help={tried && !chosen ? t("errChoose") : q.trim().length < 2 ? t("searchMin") : undefined}>
          <Input.Search value={q} onChange={(e) => setQ(e.target.value)} placeholder={t("search")} autoFocus data-testid="kanban-card-search" />
        </Form.Item>
        {hits ? (
          <List
            size="small"
            bordered
            style={{ maxHeight: 200, overflowY: "auto", marginBottom: 16 }}
            dataSource={hits}
            locale={{ emptyText: t("noResults") }}
            renderItem={(h) => (
              <List.Item
                data-testid="kanban-card-hit"
                onClick={() => !h.onBoard && setChosen(h)}
                style={{ cursor: h.onBoard ? "not-allowed" : "pointer", background: chosen?.id === h.id ? "rgba(124,77,255,0.12)" : undefined, opacity: h.onBoard ? 0.5 : 1 }}
              >
                <span>
                  <strong>{h.name}</strong> <Typography.Text type="secondary">{h.detail}</Typography.Text>
                </span>
                {h.onBoard ? <Tag>{t("onBoard")}</Tag> : h.status ? <Tag>{t(`status_${h.status}`)}</Tag> : null}
              </List.Item>
            )}
          />
        ) : null}
        <Form.Item label={t("column")} required validateStatus={tried && !column ? "error" : undefined} help={tried && !column ? t("errColumn") : undefined}>
          <Select value={column} onChange={setColumn} options={columns.map((c) => ({ value: c.id, label: c.name }))} data-testid="kanban-card-column" />
        </Form.Item>
        <Form.Item label={t("leadValue")} validateStatus={tried && !leadValueOk(lead ?? 0) ? "error" : undefined} help={tried && !leadValueOk(lead ?? 0) ? t("errLeadValue") : undefined}>
          <InputNumber style={{ width: "100%" }} min={0} max={LEAD_VALUE_MAX} precision={2} value={lead} onChange={(v) => setLead(v)} data-testid="kanban-card-lead-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A card's lead value. */
export function LeadValueModal({ card, onClose }: { card: Card; onClose: Close }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [value, setValue] = useState<number | null>(card.leadValue);
  const [busy, setBusy] = useState(false);
  const ok = leadValueOk(value);
  const save = async () => {
    if (!ok) return;
    setBusy(true);
    try {
      await runtime.api.patch("/kanban/cards", { id: card.id, leadValue: value });
      onClose(true);
    } catch (err) {
      runtime.notify.error(err);
      setBusy(false);
    }
  };
  return (
    <Modal open title={`${t("leadValue")} · ${card.name}`} okText={t("save")} cancelText={t("cancel")} onOk={() => void save()} okButtonProps={{ disabled: !ok }} onCancel={() => onClose()} confirmLoading={busy} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t("leadValue")} validateStatus={!ok ? "error" : undefined} help={!ok ? t("errLeadValue") : undefined}>
          <InputNumber autoFocus style={{ width: "100%" }} min={0} max={LEAD_VALUE_MAX} precision={2} value={value} onChange={(v) => setValue(v)} data-testid="kanban-lead-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
