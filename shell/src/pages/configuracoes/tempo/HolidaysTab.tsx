import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Select, Tag, Typography } from "antd";
import { CalendarOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { SettingsList } from "../../../ui/SettingsList";
import { EditDeleteActions } from "../../../ui/EditDeleteActions";
import { HolidayModal } from "./HolidayModal";
import { TargetTags } from "./TargetTags";
import { brDate } from "./dates";
import type { useTargets } from "./useTargets";
import type { Holiday } from "./types";

/** "2026-12-25" as the Brazilian reads it: "25/12/2026" (or "25/12" when it is every year). */
export function holidayDate(ymd: string, yearly: boolean): string {
  const [, m, d] = ymd.split("-");
  return yearly ? `${d}/${m}` : brDate(ymd);
}

/** The holidays of a year (GET /holidays?year=), yearly ones included, with their modal. */
export function HolidaysTab({ targets }: { targets: ReturnType<typeof useTargets> }) {
  const root = useRoot();
  const { t } = useTranslation();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [rows, setRows] = useState<Holiday[]>([]);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<Holiday | null | undefined>(undefined);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await root.api.get<Holiday[]>("/holidays", { query: { year } }));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root, year]);
  useEffect(() => void load(), [load]);

  const remove = async (h: Holiday) => {
    try {
      await root.api.delete(`/holidays/${h.id}`, { successNotice: t("tempo.holidays.deleted") });
      setRows((rs) => rs.filter((r) => r.id !== h.id));
    } catch {
      /* shown by the client */
    }
  };

  const years = Array.from({ length: 5 }, (_, i) => thisYear - 1 + i);
  return (
    <SettingsList<Holiday>
      testId="holidays-list"
      title={t("tempo.holidays.title")}
      description={t("tempo.holidays.descriptionText")}
      newLabel={t("tempo.holidays.new")}
      newTestId="holiday-new"
      newLoading={targets.loading}
      onNew={() => setEditing(null)}
      toolbar={
        <Select
          value={year}
          onChange={setYear}
          style={{ width: 140 }}
          aria-label={t("tempo.holidays.year")}
          data-testid="holidays-year"
          options={years.map((y) => ({ value: y, label: t("tempo.holidays.yearOption", { year: y }) }))}
        />
      }
      icon={<CalendarOutlined />}
      emptyText={t("tempo.holidays.empty", { year })}
      noMatchText={t("configuracoes.noMatch")}
      filtered={false}
      rows={rows}
      loading={loading}
      scrollX={860}
      rowTestId={(h) => `holiday-row-${h.id}`}
      columns={[
        {
          title: t("tempo.holidays.date"),
          dataIndex: "date",
          width: 130,
          render: (_: unknown, h) => (
            <span className="oa-cell-text">
              <strong className="oa-nowrap" data-testid="holiday-date-cell">
                {holidayDate(h.date, h.yearly)}
              </strong>
              {h.yearly ? <span className="oa-muted">{t("tempo.holidays.everyYear")}</span> : null}
            </span>
          ),
        },
        { title: t("tempo.holidays.description"), dataIndex: "description", render: (v: string) => <strong>{v}</strong> },
        {
          title: t("tempo.holidays.type"),
          key: "targets",
          width: 220,
          render: (_: unknown, h) => (h.type === "global" ? <Tag variant="filled">{t("tempo.types.global")}</Tag> : <TargetTags type={h.type} ids={h.targetIds} targets={h.targets} nameOf={targets.nameOf} />),
        },
        {
          title: t("tempo.holidays.message"),
          dataIndex: "message",
          width: 240,
          responsive: ["lg"],
          render: (v: string | null) => (v ? <span className="oa-clamp-2">{v}</span> : <Typography.Text type="secondary">{t("tempo.holidays.defaultMessage")}</Typography.Text>),
        },
        {
          title: t("common.actions"),
          key: "actions",
          width: 100,
          align: "right",
          fixed: "right",
          render: (_: unknown, h) => (
            <EditDeleteActions
              t={t}
              onEdit={() => setEditing(h)}
              onDelete={() => remove(h)}
              deleteTitle={t("tempo.holidays.deleteTitle")}
              deleteDetail={t("tempo.holidays.deleteDetail", { name: h.description })}
            />
          ),
        },
      ]}
    >
      {editing !== undefined ? (
        <HolidayModal
          holiday={editing}
          defaultDate=""
          options={targets.options}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void load();
          }}
        />
      ) : null}
    </SettingsList>
  );
}
