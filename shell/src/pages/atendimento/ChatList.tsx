import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Badge, Button, Empty, Input, Popover, Segmented, Skeleton, Tooltip } from "antd";
import { BellOutlined, FilterOutlined, InboxOutlined, PlusOutlined, ReloadOutlined, SearchOutlined, UsergroupAddOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { TabKey, Ticket } from "../../stores/tickets";
import { CONTACT_SEARCH_MIN } from "../../ui/constants";
import type { Attendance } from "./attendance";
import { FiltersPanel, activeFilterCount } from "./FiltersPanel";
import { TicketRow, type RowLabels } from "./TicketRow";
import { listTime } from "./format";
import { slaAgeParts, slaThresholds, ticketSla } from "./sla";
import { runtimeFor } from "../../plugins/remotes";
import type { PluginChatListAction } from "../../plugins/registry";

const ROW_HEIGHT = 86;

/** The left column: tabs, search, filters and the virtual list of tickets. */
export const ChatList = observer(function ChatList({ a, activeId, onOpen, onNewChat }: { a: Attendance; activeId: number | null; onOpen: (id: number) => void; onNewChat: () => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const store = a.tickets;
  const filter = root.session.attendanceFilter;
  const [search, setSearch] = useState(store.search);
  const [filtersOpen, setFiltersOpen] = useState(false);

  // Debounced search: at least 2 letters (spec §5), or empty.
  useEffect(() => {
    const q = search.trim();
    if (q.length > 0 && q.length < CONTACT_SEARCH_MIN) return;
    const h = setTimeout(() => store.setSearch(q), 400);
    return () => clearTimeout(h);
  }, [search]);

  const tabs: Array<{ key: TabKey; label: string }> = [
    { key: "open", label: t("atendimento.tabs.open") },
    { key: "closed", label: t("atendimento.tabs.closed") },
    ...(a.groupsHidden ? [] : [{ key: "group" as TabKey, label: t("atendimento.tabs.group") }]),
  ];
  const unreadActive = store.unread.open + store.unread.pending;
  const filters = activeFilterCount(filter, root.session.isSupervisorOrAdmin);
  const searchTooShort = search.trim().length > 0 && search.trim().length < CONTACT_SEARCH_MIN;

  return (
    <aside className="oa-chatlist" aria-label={t("atendimento.list.title")}>
      <div className="oa-chatlist-head">
        <div className="oa-chatlist-title">
          <h2>{t("atendimento.list.title")}</h2>
          <span className="oa-chatlist-actions">
            <NotificationsButton a={a} />
            <PluginActions tab={store.tab} />
            <Tooltip title={t("atendimento.list.reload")}>
              <Button type="text" shape="circle" icon={<ReloadOutlined spin={store.loading && store.loaded} />} onClick={() => void store.load()} aria-label={t("atendimento.list.reload")} />
            </Tooltip>
            <Tooltip title={t("atendimento.list.newChat")}>
              <Button type="primary" shape="circle" icon={<PlusOutlined />} onClick={onNewChat} aria-label={t("atendimento.list.newChat")} data-testid="new-chat" />
            </Tooltip>
          </span>
        </div>
        <div className="oa-chatlist-search">
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t("atendimento.list.searchPlaceholder")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            status={searchTooShort ? "warning" : undefined}
            data-testid="ticket-search"
            aria-label={t("atendimento.list.searchPlaceholder")}
          />
          <Popover
            open={filtersOpen}
            onOpenChange={setFiltersOpen}
            trigger="click"
            placement="bottomRight"
            content={<FiltersPanel a={a} onClose={() => setFiltersOpen(false)} />}
            title={t("atendimento.filters.title")}
          >
            <Badge count={filters} size="small" color="#0a7d4f">
              <Button icon={<FilterOutlined />} aria-label={t("atendimento.filters.title")} data-testid="filters-button" type={filters ? "primary" : "default"} ghost={!!filters} />
            </Badge>
          </Popover>
        </div>
        {searchTooShort ? <div className="oa-hint">{t("atendimento.list.searchMin", { min: CONTACT_SEARCH_MIN })}</div> : null}
        <Segmented
          block
          className="oa-chatlist-tabs"
          value={store.tab}
          onChange={(v) => store.setTab(v as TabKey)}
          options={tabs.map((x) => ({
            value: x.key,
            label: (
              <span className="oa-tab-label" data-testid={`tab-${x.key}`}>
                {x.label}
                {x.key === "open" && unreadActive > 0 ? <span className="oa-tab-count">{unreadActive >= store.unread.capped ? `${store.unread.capped}+` : unreadActive}</span> : null}
              </span>
            ),
          }))}
        />
      </div>
      <TicketListBody a={a} activeId={activeId} onOpen={onOpen} filtersActive={filters > 0 || !!store.search} />
    </aside>
  );
});

/** The buttons plugins added for this tab (registerChatListAction), and the one opened. */
const PluginActions = observer(function PluginActions({ tab }: { tab: TabKey }) {
  const root = useRoot();
  const [open, setOpen] = useState<PluginChatListAction | null>(null);
  const locale = root.session.locale as keyof PluginChatListAction["label"];
  const actions = root.plugins.chatListActions.filter((x) => x.tabs.includes(tab) && root.can(x.access));
  const plugin = open ? root.plugins.enabled.find((p) => p.id === open.pluginId) : undefined;
  const Component = open?.component;
  return (
    <>
      {actions.map((x) => {
        const label = x.label[locale] ?? x.label["pt-BR"];
        return (
          <Tooltip key={`${x.pluginId}:${x.key}`} title={label}>
            <Button type="text" shape="circle" icon={x.icon ?? <UsergroupAddOutlined />} onClick={() => setOpen(x)} aria-label={label} data-testid={`chatlist-action-${x.pluginId}-${x.key}`} />
          </Tooltip>
        );
      })}
      {Component && plugin ? (
        <Suspense fallback={null}>
          <Component runtime={runtimeFor(root, plugin)} tab={tab} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
    </>
  );
});

const NotificationsButton = observer(function NotificationsButton({ a }: { a: Attendance }) {
  const { t } = useTranslation();
  const p = a.notifications.permission;
  if (p === "unsupported" || p === "granted") return null;
  return (
    <Tooltip title={p === "denied" ? t("atendimento.notifications.denied") : t("atendimento.notifications.enable")}>
      <Button type="text" shape="circle" icon={<BellOutlined />} disabled={p === "denied"} onClick={() => void a.notifications.requestPermission()} aria-label={t("atendimento.notifications.enable")} className="oa-bell-off" />
    </Tooltip>
  );
});

/** The time now, moved every `everyMs`. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(h);
  }, [everyMs]);
  return now;
}

const TicketListBody = observer(function TicketListBody({ a, activeId, onOpen, filtersActive }: { a: Attendance; activeId: number | null; onOpen: (id: number) => void; filtersActive: boolean }) {
  const { t } = useTranslation();
  const root = useRoot();
  const store = a.tickets;
  const items = store.items;
  const parentRef = useRef<HTMLDivElement>(null);
  const count = items.length + (store.hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => parentRef.current, estimateSize: () => ROW_HEIGHT, overscan: 6, getItemKey: (i) => items[i]?.id ?? `more-${i}` });
  const virtualItems = virtualizer.getVirtualItems();
  const last = virtualItems[virtualItems.length - 1];

  useEffect(() => {
    if (last && last.index >= items.length - 8 && store.hasMore && !store.loadingMore && !store.loading) void store.loadMore();
  }, [last?.index, items.length, store.hasMore, store.loadingMore, store.loading]);

  // A new tab or filter starts at the top.
  useEffect(() => {
    parentRef.current?.scrollTo({ top: 0 });
  }, [store.tab]);

  const me = root.session.userId;
  const locale = root.session.locale;
  const yesterday = t("atendimento.time.yesterday");
  // The SLA chips age with the clock: the labels are made again each half minute.
  const now = useNow(30_000);
  const thresholds = slaThresholds(a.settings.sla);
  const labelsOf = useCallback(
    (x: Ticket): RowLabels => {
      const conn = a.connection(x.connectionId);
      const holder = a.user(x.userId);
      const stateKind: RowLabels["stateKind"] =
        x.status === "pending" ? "pending" : x.status === "closed" ? "closed" : x.status === "group" ? "group" : x.userId === me ? "mine" : "other";
      const state =
        stateKind === "pending"
          ? t("atendimento.status.pending")
          : stateKind === "closed"
            ? t("atendimento.status.closed")
            : stateKind === "group"
              ? t("atendimento.status.group")
              : stateKind === "mine"
                ? t("atendimento.status.mine")
                : holder?.name ?? t("atendimento.status.open");
      const clock = ticketSla(x, now, thresholds);
      const age = clock ? slaAgeParts(clock.minutes) : null;
      const ageText = age ? t(`atendimento.sla.${age.key}`, age.values) : "";
      return {
        time: listTime(x.lastMessageAt || (x.updatedAt ? new Date(x.updatedAt).getTime() : 0), locale, yesterday),
        queueName: a.queue(x.queueId)?.name ?? (x.queueId ? t("atendimento.queue.unknown", { id: x.queueId }) : t("atendimento.queue.none")),
        // A connection whose plugin is not among the user's enabled ones still shows a (neutral) icon.
        channel: conn ? (root.plugins.channelPlugin(conn.type) ?? {}) : undefined,
        channelName: conn?.name,
        state,
        stateKind,
        preview: x.lastMessage || t("atendimento.list.noMessages"),
        pinnedLabel: t("atendimento.list.pinned"),
        unreadLabel: t("atendimento.list.unread", { count: x.unreadMessages }),
        sla: clock ? { level: clock.level, text: ageText, title: t("atendimento.sla.title", { age: ageText, state: t(`atendimento.sla.${clock.level}`) }) } : undefined,
      };
    },
    [a.connections, a.users, a.queues, root.plugins.enabled, me, locale, t, now, thresholds.green, thresholds.yellow, thresholds.red],
  );

  if (!store.loaded && (store.loading || !store.failed)) {
    return (
      <div className="oa-chatlist-body oa-chatlist-skeleton" aria-busy="true">
        {Array.from({ length: 7 }, (_, i) => (
          <div className="oa-skel-row" key={i}>
            <Skeleton.Avatar active size={44} />
            <Skeleton active title={false} paragraph={{ rows: 2, width: ["80%", "55%"] }} />
          </div>
        ))}
      </div>
    );
  }
  if (store.failed && !items.length) {
    return (
      <div className="oa-chatlist-body oa-empty-list">
        <Empty description={t("atendimento.list.loadFailed")}>
          <Button onClick={() => void store.load()} icon={<ReloadOutlined />}>
            {t("atendimento.list.retry")}
          </Button>
        </Empty>
      </div>
    );
  }
  if (!items.length) {
    return (
      <div className="oa-chatlist-body oa-empty-list" data-testid="ticket-list-empty">
        <div className="oa-empty-illus">
          <InboxOutlined />
        </div>
        <strong>{t(`atendimento.empty.${store.tab}.title`)}</strong>
        <span>{filtersActive ? t("atendimento.empty.filtered") : t(`atendimento.empty.${store.tab}.detail`)}</span>
        {filtersActive ? (
          <Button
            size="small"
            onClick={() => {
              store.setSearch("");
              void a.setFilter({ queuesIds: [], withUnreadMessages: false, isNotAssignedUser: false, includeNotQueueDefined: true, showAll: false });
            }}
          >
            {t("atendimento.filters.clear")}
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <div className="oa-chatlist-body" ref={parentRef} data-testid="ticket-list" role="list">
      <div style={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
        {virtualItems.map((v) => {
          const x = items[v.index];
          return (
            <div key={v.key} role="listitem" style={{ position: "absolute", top: 0, left: 0, width: "100%", height: v.size, transform: `translateY(${v.start}px)` }}>
              {x ? (
                <TicketRow t={x} active={x.id === activeId} labels={labelsOf(x)} onOpen={onOpen} />
              ) : (
                <div className="oa-ticket-more">
                  <Skeleton.Avatar active size={36} />
                  <span>{t("common.loading")}</span>
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
});
