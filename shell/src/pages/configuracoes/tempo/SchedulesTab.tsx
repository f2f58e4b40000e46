import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Switch, Typography } from "antd";
import { FieldTimeOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { SettingsList } from "../../../ui/SettingsList";
import { EditDeleteActions } from "../../../ui/EditDeleteActions";
import { ScheduleDrawer } from "./ScheduleDrawer";
import { TargetTags, TYPE_ICON } from "./TargetTags";
import { weekSummary } from "./week";
import type { useTargets } from "./useTargets";
import type { BusinessHours } from "./types";

const TYPE_ORDER = { queue: 0, user: 1, whatsapp: 2, global: 3 } as const;
const byTypeAndName = (a: BusinessHours, b: BusinessHours) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.name.localeCompare(b.name) || a.id - b.id;

/** The schedules by queue, user and WhatsApp connection (GET /business-hours, without the global one), with their drawer. */
export function SchedulesTab({ targets }: { targets: ReturnType<typeof useTargets> }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [rows, setRows] = useState<BusinessHours[]>([]);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState<number | null>(null);
  const [editing, setEditing] = useState<BusinessHours | null | undefined>(undefined);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const all = await root.api.get<BusinessHours[]>("/business-hours");
      setRows(all.filter((s) => s.type !== "global").sort(byTypeAndName));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root]);
  useEffect(() => void load(), [load]);

  const put = (s: BusinessHours) => setRows((rs) => (rs.some((r) => r.id === s.id) ? rs.map((r) => (r.id === s.id ? s : r)) : [...rs, s]).sort(byTypeAndName));

  const toggle = async (s: BusinessHours, active: boolean) => {
    setBusy(s.id);
    try {
      const { name, type, targetIds, days, messages } = s;
      put(await root.api.put<BusinessHours>(`/business-hours/${s.id}`, { name, type, targetIds, active, days, messages }, { successNotice: t("tempo.schedules.saved") }));
    } catch {
      /* shown by the client (another active schedule for the same target…) */
    } finally {
      setBusy(null);
    }
  };

  const remove = async (s: BusinessHours) => {
    try {
      await root.api.delete(`/business-hours/${s.id}`, { successNotice: t("tempo.schedules.deleted") });
      setRows((rs) => rs.filter((r) => r.id !== s.id));
    } catch {
      /* shown by the client */
    }
  };

  return (
    <SettingsList<BusinessHours>
      testId="schedules-list"
      title={t("tempo.schedules.title")}
      description={t("tempo.schedules.description")}
      newLabel={t("tempo.schedules.new")}
      newTestId="schedule-new"
      newLoading={targets.loading}
      onNew={() => setEditing(null)}
      icon={<FieldTimeOutlined />}
      emptyText={t("tempo.schedules.empty")}
      noMatchText={t("configuracoes.noMatch")}
      filtered={false}
      rows={rows}
      loading={loading}
      scrollX={900}
      rowTestId={(s) => `schedule-row-${s.id}`}
      columns={[
        {
          title: t("tempo.schedules.type"),
          key: "type",
          width: 230,
          render: (_: unknown, s) => (
            <span className="oa-cell-main">
              <span style={{ opacity: 0.6 }}>{TYPE_ICON[s.type]}</span>
              <span className="oa-cell-text">
                <strong>{s.name || t(`tempo.types.${s.type}`)}</strong>
                {s.name ? <span className="oa-muted">{t(`tempo.types.${s.type}`)}</span> : null}
              </span>
            </span>
          ),
        },
        { title: t("tempo.schedules.targets"), key: "targets", width: 200, render: (_: unknown, s) => <TargetTags type={s.type} ids={s.targetIds} targets={s.targets} nameOf={targets.nameOf} /> },
        {
          title: t("tempo.schedules.week"),
          key: "week",
          render: (_: unknown, s) => (
            <Typography.Text className="oa-week-summary" data-testid="schedule-summary">
              {weekSummary(s.days, t)}
            </Typography.Text>
          ),
        },
        {
          title: t("tempo.schedules.active"),
          key: "active",
          width: 90,
          render: (_: unknown, s) => <Switch size="small" checked={s.active} loading={busy === s.id} onChange={(v) => void toggle(s, v)} aria-label={t("tempo.schedules.active")} data-testid={`schedule-active-${s.id}`} />,
        },
        {
          title: t("common.actions"),
          key: "actions",
          width: 100,
          align: "right",
          fixed: "right",
          render: (_: unknown, s) => (
            <EditDeleteActions
              t={t}
              onEdit={() => setEditing(s)}
              onDelete={() => remove(s)}
              deleteTitle={t("tempo.schedules.deleteTitle")}
              deleteDetail={t("tempo.schedules.deleteDetail")}
            />
          ),
        },
      ]}
    >
      {editing !== undefined ? (
        <ScheduleDrawer
          schedule={editing}
          options={targets.options}
          onClose={() => setEditing(undefined)}
          onSaved={(s) => {
            put(s);
            setEditing(undefined);
          }}
        />
      ) : null}
    </SettingsList>
  );
}
