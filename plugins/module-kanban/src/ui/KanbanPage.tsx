import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, Button, Empty, Modal, Select, Space, Spin, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { moveInBoard } from "../board";
import { useRuntime } from "./runtime";
import { BoardColumn, type DragState } from "./BoardColumn";
import { AddCardModal, ColumnModal, DeleteColumnModal, LeadValueModal } from "./Modals";
import type { Board, Card, Column } from "./types";

interface Filters {
  queueIds: number[];
  userIds: number[];
  tagIds: number[];
}

type Dialog = { kind: "column"; column?: Column } | { kind: "delete"; column: Column } | { kind: "card"; columnId?: number } | { kind: "lead"; card: Card } | { kind: "remove"; card: Card } | null;

const query = (f: Filters) => ({ queueIds: f.queueIds.join(",") || undefined, userIds: f.userIds.join(",") || undefined, tagIds: f.tagIds.join(",") || undefined });

/**
 * The lead board (/kanban): columns side by side with their colour, count and total; cards
 * dragged between and within columns (HTML5 drag and drop), drawn at once and sent to the
 * server with the index they were dropped at; every change of anyone's board (the plugin's
 * `board.changed` push) reloads it, so two agents see each other's moves live.
 */
export default function KanbanPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [board, setBoard] = useState<Board | null>(null);
  const [filters, setFilters] = useState<Filters>({ queueIds: [], userIds: [], tagIds: [] });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [drag, setDrag] = useState<DragState | null>(null);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  /** Loads are numbered: an answer older than the newest asked is dropped (a slow load never undoes a later one). */
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const b = await runtime.api.get<Board>("/kanban/board", { query: query(filtersRef.current), silent: true });
      if (mine === seq.current) setBoard(b);
    } catch (err) {
      if (mine === seq.current) runtime.notify.error(err);
    }
  }, [runtime]);

  useEffect(() => void load(), [load, filters]);
  useEffect(() => runtime.realtime.on("board.changed", () => void load()), [runtime, load]);

  const moveCard = async (card: Card, columnId: number, slotIndex: number, serverIndex: number) => {
    if (!board) return;
    setBoard({ ...board, columns: moveInBoard(board.columns, card.id, columnId, slotIndex) });
    try {
      await runtime.api.post("/kanban/cards/move", { id: card.id, columnId, index: serverIndex });
    } catch (err) {
      runtime.notify.error(err);
    }
    await load();
  };

  const moveColumn = async (column: Column, index: number) => {
    await runtime.api.post("/kanban/columns/move", { id: column.id, index }).catch((err) => runtime.notify.error(err));
    await load();
  };

  const removeCard = async (card: Card) => {
    setDialog(null);
    await runtime.api.delete("/kanban/cards", { query: { id: card.id } }).catch((err) => runtime.notify.error(err));
    await load();
  };

  const closeDialog = (changed?: boolean) => {
    setDialog(null);
    if (changed) void load();
  };

  const option = (x: { id: number; name: string }) => ({ value: x.id, label: x.name });
  const anyFilter = filters.queueIds.length + filters.userIds.length + filters.tagIds.length > 0;

  return (
    // Its own spacing: the shell's page styles belong to the shell's chunks, not to a remote.
    <div className="oa-page" data-page="KanbanPage" data-testid="kanban-page" style={{ padding: "24px 28px 32px", display: "flex", flexDirection: "column", gap: 16, minWidth: 0 }}>
      <div style={{ display: "flex", alignItems: "flex-start", justifyContent: "space-between", gap: 12, flexWrap: "wrap" }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
        </div>
        <Space wrap>
          <Button icon={<PlusOutlined />} onClick={() => setDialog({ kind: "card" })} disabled={!board?.columns.length} data-testid="kanban-add-card">
            {t("addCard")}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: "column" })} data-testid="kanban-new-column">
            {t("newColumn")}
          </Button>
        </Space>
      </div>
      <Space wrap>
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          placeholder={t("filterQueues")}
          options={board?.queues.map(option)}
          value={filters.queueIds}
          onChange={(queueIds) => setFilters({ ...filters, queueIds })}
          data-testid="kanban-filter-queues"
          maxTagCount="responsive"
        />
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          placeholder={t("filterUsers")}
          options={board?.users.map(option)}
          value={filters.userIds}
          onChange={(userIds) => setFilters({ ...filters, userIds })}
          data-testid="kanban-filter-users"
          maxTagCount="responsive"
        />
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          placeholder={t("filterTags")}
          options={board?.tags.map(option)}
          value={filters.tagIds}
          onChange={(tagIds) => setFilters({ ...filters, tagIds })}
          data-testid="kanban-filter-tags"
          maxTagCount="responsive"
        />
        {anyFilter ? <Button onClick={() => setFilters({ queueIds: [], userIds: [], tagIds: [] })}>{t("clearFilters")}</Button> : null}
      </Space>
      {board?.filtered ? <Alert type="info" showIcon title={t("filteredHint")} /> : null}
      {!board ? (
        <Spin />
      ) : !board.columns.length ? (
        <Empty description={t("empty")} data-testid="kanban-empty" />
      ) : (
        <div data-testid="kanban-board" data-version={board.version} style={{ display: "flex", gap: 12, overflowX: "auto", alignItems: "flex-start", paddingBottom: 8, flex: 1, minHeight: 0 }}>
          {board.columns.map((col, i) => (
            <BoardColumn
              key={col.id}
              column={col}
              board={board}
              index={i}
              drag={drag}
              setDrag={setDrag}
              onMoveCard={moveCard}
              onMoveColumn={(index) => void moveColumn(col, index)}
              onEdit={() => setDialog({ kind: "column", column: col })}
              onDelete={() => setDialog({ kind: "delete", column: col })}
              onAddCard={() => setDialog({ kind: "card", columnId: col.id })}
              onEditLead={(card) => setDialog({ kind: "lead", card })}
              onRemoveCard={(card) => setDialog({ kind: "remove", card })}
            />
          ))}
        </div>
      )}
      {dialog?.kind === "column" ? <ColumnModal column={dialog.column} onClose={closeDialog} /> : null}
      {dialog?.kind === "delete" && board ? <DeleteColumnModal column={dialog.column} columns={board.columns} onClose={closeDialog} /> : null}
      {dialog?.kind === "card" && board ? <AddCardModal columns={board.columns} columnId={dialog.columnId} onClose={closeDialog} /> : null}
      {dialog?.kind === "remove" ? (
        <Modal open title={t("removeCard")} okText={t("delete")} okButtonProps={{ danger: true }} cancelText={t("cancel")} onOk={() => void removeCard(dialog.card)} onCancel={() => setDialog(null)}>
          {t("removeCardConfirm", { name: dialog.card.name })}
        </Modal>
      ) : null}
      {dialog?.kind === "lead" ? <LeadValueModal card={dialog.card} onClose={closeDialog} /> : null}
    </div>
  );
}
