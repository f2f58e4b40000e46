import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Checkbox, Divider, Segmented, Switch } from "antd";
import { useRoot } from "../../app/context";
import { DEFAULT_FILTER, type AttendanceFilter } from "../../stores/session";
import type { Attendance } from "./attendance";
import { avatarColor } from "../../ui/person";

/** How many filters differ from the defaults (the filter button's badge). */
export function activeFilterCount(f: AttendanceFilter, supervisor: boolean): number {
  let n = 0;
  if (f.queuesIds.length) n++;
  if (f.withUnreadMessages) n++;
  if (f.isNotAssignedUser) n++;
  if (!f.includeNotQueueDefined) n++;
  if (supervisor && f.showAll) n++;
  if (f.orderBy === "oldest") n++;
  return n;
}

/** The attendance filter (spec §3), saved in the user's configs as filtrosAtendimento. */
export const FiltersPanel = observer(function FiltersPanel({ a, onClose }: { a: Attendance; onClose: () => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const f = root.session.attendanceFilter;
  const supervisor = root.session.isSupervisorOrAdmin;
  // Users filter by the queues they belong to; admins and supervisors by any queue.
  const queues = supervisor ? a.queues : a.queues.filter((q) => a.myQueues.includes(q.id));
  const set = (patch: Partial<AttendanceFilter>) => void a.setFilter(patch);

  return (
    <div className="oa-filters" data-testid="filters-panel">
      <div className="oa-filters-section">
        <span className="oa-filters-label">{t("atendimento.filters.queues")}</span>
        {queues.length ? (
          <Checkbox.Group value={f.queuesIds} onChange={(v) => set({ queuesIds: (v as number[]).map(Number) })} className="oa-filters-queues">
            {queues.map((q) => (
              <Checkbox key={q.id} value={q.id}>
                <span className="oa-queue-dot" style={{ background: avatarColor(q.id) }} />
                {q.name}
              </Checkbox>
            ))}
          </Checkbox.Group>
        ) : (
          <span className="oa-muted">{t("atendimento.filters.noQueues")}</span>
        )}
        <span className="oa-muted oa-small">{t("atendimento.filters.queuesHint")}</span>
      </div>
      <Divider style={{ margin: "10px 0" }} />
      <FilterSwitch label={t("atendimento.filters.withUnread")} checked={f.withUnreadMessages} onChange={(v) => set({ withUnreadMessages: v })} testId="filter-unread" />
      <FilterSwitch label={t("atendimento.filters.notAssigned")} checked={f.isNotAssignedUser} onChange={(v) => set({ isNotAssignedUser: v })} testId="filter-not-assigned" />
      <FilterSwitch label={t("atendimento.filters.includeNoQueue")} checked={f.includeNotQueueDefined} onChange={(v) => set({ includeNotQueueDefined: v })} testId="filter-no-queue" />
      {supervisor ? <FilterSwitch label={t("atendimento.filters.showAll")} hint={t("atendimento.filters.showAllHint")} checked={f.showAll} onChange={(v) => set({ showAll: v })} testId="filter-show-all" /> : null}
      <div className="oa-filters-order">
        <span className="oa-filters-label">{t("atendimento.filters.order")}</span>
        <Segmented
          block
          size="small"
          value={f.orderBy === "oldest" ? "oldest" : "recent"}
          onChange={(v) => set({ orderBy: v as AttendanceFilter["orderBy"] })}
          options={[
            { value: "recent", label: <span data-testid="order-recent">{t("atendimento.filters.orderRecent")}</span> },
            { value: "oldest", label: <span data-testid="order-oldest">{t("atendimento.filters.orderOldest")}</span> },
          ]}
          data-testid="filter-order"
        />
        <span className="oa-muted oa-small">{t("atendimento.filters.orderHint")}</span>
      </div>
      <div className="oa-filters-foot">
        <Button
          size="small"
          type="link"
          onClick={() => set({ ...DEFAULT_FILTER, searchParam: "" })}
          disabled={activeFilterCount(f, supervisor) === 0}
        >
          {t("atendimento.filters.clear")}
        </Button>
        <Button size="small" type="primary" onClick={onClose}>
          {t("atendimento.filters.done")}
        </Button>
      </div>
    </div>
  );
});

function FilterSwitch({ label, hint, checked, onChange, testId }: { label: string; hint?: string; checked: boolean; onChange: (v: boolean) => void; testId: string }) {
  return (
    <label className="oa-filter-switch">
      <span>
        {label}
        {hint ? <small className="oa-muted">{hint}</small> : null}
      </span>
      <Switch size="small" checked={checked} onChange={onChange} data-testid={testId} />
    </label>
  );
}
