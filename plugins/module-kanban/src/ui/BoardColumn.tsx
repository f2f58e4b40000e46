import { useRef, useState, type DragEvent } from "react";
import { Button, Dropdown, Tag, Tooltip, Typography } from "antd";
import { DeleteOutlined, DollarOutlined, EditOutlined, LeftOutlined, MoreOutlined, PlusOutlined, RightOutlined } from "@ant-design/icons";
import { useRuntime } from "./runtime";
import { formatLeadValue, serverIndex, slotAt } from "./rules";
import type { Board, Card, Column } from "./types";

/** The card being dragged and where it would land now (column and slot among the cards shown there). */
export interface DragState {
  card: Card;
  over?: { columnId: number; slot: number };
}

interface Props {
  column: Column;
  board: Board;
  index: number;
  drag: DragState | null;
  setDrag(d: DragState | null): void;
  onMoveCard(card: Card, columnId: number, slot: number, serverIndex: number): void;
  onMoveColumn(index: number): void;
  onEdit(): void;
  onDelete(): void;
  onAddCard(): void;
  onEditLead(card: Card): void;
  onRemoveCard(card: Card): void;
}

const DROP_LINE = <div data-testid="kanban-drop-line" style={{ height: 3, borderRadius: 2, background: "#7c4dff", margin: "2px 0" }} />;

/** One column: its colour bar, name, count and total, and its cards as drop targets. */
export function BoardColumn(p: Props) {
  const runtime = useRuntime();
  const t = runtime.t;
  const list = useRef<HTMLDivElement>(null);
  const { column, drag } = p;
  const over = drag?.over?.columnId === column.id ? drag.over.slot : null;

  /** The slot under the pointer: how many of the other cards shown have their middle above it. */
  const slotFor = (e: DragEvent) => {
    const els = Array.from(list.current?.querySelectorAll<HTMLElement>("[data-card-id]") ?? []).filter((el) => Number(el.dataset.cardId) !== drag?.card.id);
    return slotAt(
      e.clientY,
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return r.top + r.height / 2;
      }),
    );
  };

  const onDragOver = (e: DragEvent) => {
    if (!drag) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    const slot = slotFor(e);
    if (drag.over?.columnId !== column.id || drag.over.slot !== slot) p.setDrag({ ...drag, over: { columnId: column.id, slot } });
  };

  const onDrop = (e: DragEvent) => {
    if (!drag) return;
    e.preventDefault();
    const slot = slotFor(e);
    const index = serverIndex(column.cards, drag.card, column.id, slot);
    p.setDrag(null);
    p.onMoveCard(drag.card, column.id, slot, index);
  };

  const menu = [
    { key: "edit", icon: <EditOutlined />, label: t("rename"), onClick: p.onEdit },
    { key: "left", icon: <LeftOutlined />, label: t("moveLeft"), disabled: p.index === 0, onClick: () => p.onMoveColumn(p.index - 1) },
    { key: "right", icon: <RightOutlined />, label: t("moveRight"), disabled: p.index === p.board.columns.length - 1, onClick: () => p.onMoveColumn(p.index + 1) },
    { key: "delete", icon: <DeleteOutlined />, label: t("deleteColumn"), danger: true, onClick: p.onDelete },
  ];

  // Every card stays drawn (taking the dragged one out of the page would end its drag); the
  // line goes before the card that holds the slot among the others, or after the last.
  const others = column.cards.filter((c) => c.id !== drag?.card.id);
  const lineBefore = over !== null && over < others.length ? others[over].id : null;
  return (
    <section
      data-testid="kanban-column"
      data-column-id={column.id}
      data-name={column.name}
      style={{ flex: "0 0 280px", background: "rgba(127,127,127,0.08)", borderRadius: 8, borderTop: `4px solid ${column.color}`, display: "flex", flexDirection: "column", maxHeight: "100%" }}
    >
      <header style={{ padding: "8px 10px", display: "flex", alignItems: "flex-start", gap: 6 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ display: "block" }} data-testid="kanban-column-name">
            <span style={{ display: "inline-block", width: 10, height: 10, borderRadius: 5, background: column.color, marginRight: 6 }} />
            {column.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <span data-testid="kanban-column-count">{t("cards", { count: column.count })}</span> · {t("total")}: <span data-testid="kanban-column-total">{formatLeadValue(column.leadValue, runtime.locale)}</span>
          </Typography.Text>
        </div>
        <Tooltip title={t("addCard")}>
          <Button size="small" type="text" icon={<PlusOutlined />} onClick={p.onAddCard} aria-label={t("addCard")} />
        </Tooltip>
        <Dropdown menu={{ items: menu }} trigger={["click"]}>
          <Button size="small" type="text" icon={<MoreOutlined />} data-testid="kanban-column-menu" aria-label={t("rename")} />
        </Dropdown>
      </header>
      <div ref={list} onDragOver={onDragOver} onDrop={onDrop} data-testid="kanban-column-cards" style={{ padding: "0 8px 8px", minHeight: 80, overflowY: "auto", display: "flex", flexDirection: "column", gap: 8 }}>
        {column.cards.map((card) => (
          <div key={card.id}>
            {lineBefore === card.id ? DROP_LINE : null}
            <BoardCard card={card} board={p.board} dragging={drag?.card.id === card.id} onDragStart={() => p.setDrag({ card })} onDragEnd={() => p.setDrag(null)} onEditLead={() => p.onEditLead(card)} onRemove={() => p.onRemoveCard(card)} />
          </div>
        ))}
        {over !== null && over >= others.length ? DROP_LINE : null}
        {!column.cards.length ? (
          <Typography.Text type="secondary" style={{ textAlign: "center", fontSize: 12, padding: 12 }}>
            {t("emptyColumn")}
          </Typography.Text>
        ) : null}
      </div>
    </section>
  );
}

interface CardProps {
  card: Card;
  board: Board;
  dragging: boolean;
  onDragStart(): void;
  onDragEnd(): void;
  onEditLead(): void;
  onRemove(): void;
}

/** A card: the contact's name; a ticket's number, status, queue and agent; the lead value. A ticket card opens its conversation. */
function BoardCard({ card, board, dragging, onDragStart, onDragEnd, onEditLead, onRemove }: CardProps) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [hover, setHover] = useState(false);
  const ticket = card.ticket;
  const queue = ticket?.queueId ? board.queues.find((q) => q.id === ticket.queueId) : undefined;
  const user = ticket?.userId ? board.users.find((u) => u.id === ticket.userId) : undefined;
  const open = () => {
    if (ticket) window.location.hash = `#/atendimento/${ticket.id}`;
  };
  return (
    <div
      data-testid="kanban-card"
      data-card-id={card.id}
      data-kind={card.kind}
      data-target-id={card.targetId}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", String(card.id));
        onDragStart();
      }}
      onDragEnd={onDragEnd}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      style={{ background: "var(--ant-color-bg-container, #fff)", borderRadius: 6, padding: "8px 10px", boxShadow: "0 1px 2px rgba(0,0,0,0.12)", cursor: "grab", opacity: dragging ? 0.4 : 1 }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 6 }}>
        {ticket ? (
          <Typography.Link strong ellipsis style={{ flex: 1, minWidth: 0 }} onClick={open} data-testid="kanban-card-name" title={t("openTicket")}>
            {card.name}
          </Typography.Link>
        ) : (
          <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }} data-testid="kanban-card-name">
            {card.name}
          </Typography.Text>
        )}
        <span style={{ visibility: hover ? "visible" : "hidden", display: "flex" }}>
          <Tooltip title={t("editLeadValue")}>
            <Button size="small" type="text" icon={<DollarOutlined />} onClick={onEditLead} aria-label={t("editLeadValue")} data-testid="kanban-card-lead-edit" />
          </Tooltip>
          <Tooltip title={t("removeCard")}>
            <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t("removeCard")} data-testid="kanban-card-remove" />
          </Tooltip>
        </span>
      </div>
      {ticket ? (
        <div style={{ fontSize: 12, marginTop: 2 }}>
          <Typography.Text type="secondary">#{ticket.protocol ?? ticket.id}</Typography.Text> <Tag style={{ marginInlineEnd: 0 }}>{t(`status_${ticket.status}`)}</Tag>
          <div>
            <Typography.Text type="secondary">
              {queue?.name ?? t("noQueue")} · {user?.name ?? t("noUser")}
            </Typography.Text>
          </div>
        </div>
      ) : (
        <div style={{ fontSize: 12 }}>
          <Typography.Text type="secondary">
            {t("kindContact")} · {card.contact?.number ?? card.contact?.email ?? ""}
          </Typography.Text>
        </div>
      )}
      {card.tags.length ? (
        <div style={{ marginTop: 4, display: "flex", flexWrap: "wrap", gap: 4 }}>
          {card.tags.map((tag) => (
            <Tag key={tag.id} color={tag.color} style={{ marginInlineEnd: 0, fontSize: 11 }}>
              {tag.name}
            </Tag>
          ))}
        </div>
      ) : null}
      <div style={{ marginTop: 4, fontWeight: 600 }} data-testid="kanban-card-lead">
        {formatLeadValue(card.leadValue, runtime.locale)}
      </div>
    </div>
  );
}
