import { useCallback, useEffect, useMemo, useState, type HTMLAttributes } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Card, Empty, Input, Table, Tag, Tooltip, Typography } from "antd";
import { CalendarOutlined, EditOutlined, SearchOutlined, UserOutlined } from "@ant-design/icons";
import type { TableColumnsType } from "antd";
import { useRoot } from "../../../app/context";
import { SectionHeader } from "../../../ui/SectionHeader";
import { AvailabilityModal, fullWeek } from "./AvailabilityModal";
import { AVAILABILITY_SLOTS, WEEK_ORDER, type AvailabilitySlotKind, type UserAvailabilityRow } from "./types";
import "../settings-group.css";
import "./tempo.css";

type Row = UserAvailabilityRow & { id: number };

/** Each kind of slot's colour, in the table and its legend. */
const SLOT_COLOR: Record<AvailabilitySlotKind, string> = { morning: "gold", afternoon: "blue", evening: "purple", fullDay: "green" };

/**
 * Settings › Disponibilidade: when each user of the tenant can be booked (spec §3
 * Availability: per weekday, morning, afternoon, evening or full-day slots), used by
 * appointments and by chatbot distribution. One row a user, one column a weekday.
 */
export default observer(function HorariosPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const [rows, setRows] = useState<UserAvailabilityRow[]>([]);
  const [loading, setLoading] = useState(true);
  const [filter, setFilter] = useState("");
  const [editing, setEditing] = useState<UserAvailabilityRow | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const list = await root.api.get<UserAvailabilityRow[]>("/availability");
      setRows([...list].sort((a, b) => a.name.localeCompare(b.name)));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root]);
  useEffect(() => void load(), [load]);

  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return (q ? rows.filter((r) => r.name.toLowerCase().includes(q)) : rows).map((r) => ({ ...r, id: r.userId }));
  }, [rows, filter]);

  const dayColumns: TableColumnsType<Row> = WEEK_ORDER.map((wd) => ({
    title: t(`tempo.weekdaysShort.${wd}`),
    key: `d${wd}`,
    width: 100,
    render: (_: unknown, r) => {
      const slots = fullWeek(r.days)[wd];
      if (!slots.length) return <Typography.Text type="secondary">—</Typography.Text>;
      return (
        <span className="oa-slot-cell" data-testid={`availability-cell-${r.userId}-${wd}`}>
          {slots.map((s) => (
            <Tooltip key={s.kind} title={t(`tempo.slots.${s.kind}`)}>
              <Tag color={SLOT_COLOR[s.kind]} variant="filled" data-kind={s.kind}>
                {s.start}–{s.end}
              </Tag>
            </Tooltip>
          ))}
        </span>
      );
    },
  }));

  return (
    <div className="oa-settings-stack">
      <Card variant="borderless" data-testid="availability-page">
        <SectionHeader title={t("tempo.availability.title")} description={t("tempo.availability.description")} />
        <div className="oa-toolbar">
          <Input allowClear prefix={<SearchOutlined />} placeholder={t("tempo.availability.search")} style={{ maxWidth: 320 }} value={filter} onChange={(e) => setFilter(e.target.value)} />
          <span className="oa-grow" />
          <span className="oa-slot-legend" data-testid="availability-legend">
            <Typography.Text type="secondary">{t("tempo.availability.legend")}</Typography.Text>
            {AVAILABILITY_SLOTS.map((k) => (
              <Tag key={k} color={SLOT_COLOR[k]} variant="filled">
                {t(`tempo.slots.${k}`)}
              </Tag>
            ))}
          </span>
        </div>
        <Table<Row>
          rowKey="id"
          loading={loading}
          dataSource={shown}
          pagination={shown.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          scroll={{ x: 960 }}
          onRow={(r) => ({ "data-testid": `availability-row-${r.userId}` }) as HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <Empty className="oa-empty-cta" image={<span className="oa-empty-icon"><CalendarOutlined /></span>} description={filter ? t("configuracoes.noMatch") : t("tempo.availability.empty")} /> }}
          columns={[
            {
              title: t("tempo.availability.user"),
              key: "name",
              width: 180,
              fixed: "left",
              render: (_: unknown, r) => (
                <span className="oa-cell-main">
                  <UserOutlined style={{ opacity: 0.55 }} />
                  <span className="oa-cell-text">
                    <strong>{r.name}</strong>
                    {!r.updatedAt ? <span className="oa-muted">{t("tempo.availability.notSet")}</span> : null}
                  </span>
                </span>
              ),
            },
            ...dayColumns,
            {
              title: t("common.actions"),
              key: "actions",
              width: 84,
              align: "right",
              fixed: "right",
              render: (_: unknown, r) => (
                <Tooltip title={t("common.edit")}>
                  <Button type="text" icon={<EditOutlined />} onClick={() => setEditing(r)} aria-label={t("common.edit")} data-testid={`availability-edit-${r.userId}`} />
                </Tooltip>
              ),
            },
          ]}
        />
        {editing ? (
          <AvailabilityModal
            row={editing}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              setRows((rs) => rs.map((r) => (r.userId === saved.userId ? { ...r, days: saved.days, updatedAt: saved.updatedAt } : r)));
              setEditing(null);
            }}
          />
        ) : null}
      </Card>
    </div>
  );
});
