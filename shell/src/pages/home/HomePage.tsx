import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { DashboardBlocks } from "../../plugins/slots";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Avatar, Button, Card, Empty, Progress, Segmented, Skeleton, Table, Tag, Tooltip, Typography } from "antd";
import { CheckCircleOutlined, ClockCircleOutlined, CustomerServiceOutlined, HourglassOutlined, InboxOutlined, ReloadOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { Donut, EvolutionChart, SERIES, Sparkline, StackedBar, STATUS_COLORS } from "./charts";
import { avatarColor, initials } from "../../ui/person";
import { duration, greetingKey, lastWeek, PERIODS, periodRange, type PeriodKey } from "./format";
import { MassActions, type Named } from "./MassActions";
import "./home.css";

type Counts = Record<"open" | "pending" | "closed" | "group" | "chatbot", number>;

/** GET /dashboard/tickets */
interface TicketFigures {
  scope: "tenant" | "mine";
  byStatus: Counts;
  total: number;
  byQueue: Array<{ queueId: number | null; name: string | null; counts: Counts; total: number }>;
  byUser: Array<{ userId: number | null; name: string | null; counts: Counts; total: number }>;
}

/** GET /dashboard/evolution */
interface Evolution {
  period: { from: string; to: string; days: string[] };
  daily: Array<{ date: string; created: number; closed: number }>;
  byConnection: Array<{ connectionId: number | null; name: string | null; type: string | null; total: number; daily: number[] }>;
  handle: Array<{ userId: number | null; closed: number; avgHandleSeconds: number | null }>;
  avgHandleSeconds: number | null;
}

interface Data {
  figures: TicketFigures;
  evolution: Evolution;
  /** The chart's days: the period, or the last week when the period is one day. */
  chart: Evolution["daily"];
  at: Date;
}

const LIVE_REFRESH_MS = 5_000;

function Kpi({ icon, color, label, value, hint, testId }: { icon: ReactNode; color: string; label: string; value: ReactNode; hint?: ReactNode; testId: string }) {
  return (
    <Card className="oa-kpi" data-testid={testId}>
      <span className="oa-kpi-icon" style={{ color, background: `${color}1a` }}>
        {icon}
      </span>
      <div className="oa-kpi-body">
        <span className="oa-kpi-label">{label}</span>
        <span className="oa-kpi-value">{value}</span>
        {hint ? <span className="oa-kpi-hint">{hint}</span> : null}
      </div>
    </Card>
  );
}

function CardTitle({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="oa-card-title">
      <span>{title}</span>
      <Typography.Text type="secondary">{hint}</Typography.Text>
    </div>
  );
}

/**
 * /home (spec §2): the service now and over a period — cards, evolution per day and per
 * channel, status, queues, team performance — and, for admins, mass transfer and resolve.
 * Supervisors and admins see the team; agents their own tickets and their queues'. Ticket
 * events refresh it while it is open.
 */
const HomePage = observer(function HomePage() {
  const root = useRoot();
  const { t } = useTranslation();
  const { session } = root;
  const locale = session.locale;
  const [period, setPeriod] = useState<PeriodKey>("d7");
  const [data, setData] = useState<Data | null>(null);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);
  const [people, setPeople] = useState<{ users: Named[]; queues: Named[] }>({ users: [], queues: [] });
  const seq = useRef(0);
  const admin = root.can("admin");
  const tr = (k: string, v?: Record<string, unknown>) => root.t(k, v);

  const load = async (silent: boolean) => {
    const mine = ++seq.current;
    if (!silent) setLoading(true);
    const r = periodRange(period);
    const week = lastWeek();
    try {
      const [figures, evolution, chartEvo] = await Promise.all([
        root.api.get<TicketFigures>("/dashboard/tickets", { query: { dateFrom: r.dateFrom, dateTo: r.dateTo }, silent }),
        root.api.get<Evolution>("/dashboard/evolution", { query: { dateFrom: r.from, dateTo: r.to }, silent }),
        period === "today" ? root.api.get<Evolution>("/dashboard/evolution", { query: { dateFrom: week.from, dateTo: week.to }, silent }) : null,
      ]);
      if (mine !== seq.current) return;
      setData({ figures, evolution, chart: (chartEvo ?? evolution).daily, at: new Date() });
    } catch {
      /* the client showed the notice; the last figures stay */
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  };

  useEffect(() => {
    void load(false);
  }, [period, version]);

  // Live: ticket events refresh the figures (at most every few seconds).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = root.realtime.on(`${session.tenantId}:ticketList`, () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void load(true);
      }, LIVE_REFRESH_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [period, session.tenantId]);

  // Names for the mass actions (admins).
  useEffect(() => {
    if (!admin) return;
    void Promise.all([
      root.api.get<{ users: Named[] }>("/users", { query: { pageSize: 200 }, silent: true }).catch(() => ({ users: [] })),
      root.api.get<Named[]>("/queues", { silent: true }).catch(() => []),
    ]).then(([u, q]) => setPeople({ users: u.users, queues: q }));
  }, [admin]);

  const view = useMemo(() => {
    if (!data) return null;
    const { figures, evolution } = data;
    const avgBy = new Map(evolution.handle.map((h) => [h.userId, h.avgHandleSeconds]));
    const people = figures.byUser.filter((u) => u.userId !== null);
    const closedAll = people.reduce((s, u) => s + u.counts.closed, 0);
    const unassigned = figures.byUser.find((u) => u.userId === null)?.counts.pending ?? 0;
    const created = evolution.daily.reduce((s, d) => s + d.created, 0);
    const queueMax = Math.max(1, ...figures.byQueue.map((q) => q.counts.open + q.counts.pending + q.counts.closed));
    return {
      figures,
      evolution,
      team: people.map((u) => ({ ...u, avg: avgBy.get(u.userId) ?? null, share: closedAll ? u.counts.closed / closedAll : 0 })),
      unassigned,
      created,
      queueMax,
    };
  }, [data]);

  const team = (view?.figures.scope ?? (session.isSupervisorOrAdmin ? "tenant" : "mine")) === "tenant";
  const statusParts = (["open", "pending", "closed", "group", "chatbot"] as const).map((k) => ({ key: k, value: view?.figures.byStatus[k] ?? 0, color: STATUS_COLORS[k], label: t(`home.status.${k}`) }));
  const first = !view;

  return (
    <div className="oa-dash" data-page="HomePage">
      <header className="oa-dash-head">
        <div>
          <Typography.Title level={3} className="oa-dash-title">
            {t(`home.greeting.${greetingKey()}`, { name: session.username.split(" ")[0] })}
          </Typography.Title>
          <Typography.Text type="secondary">{team ? t("home.subtitleTeam") : t("home.subtitleOwn")}</Typography.Text>
        </div>
        <div className="oa-dash-tools">
          {root.realtime.status === "connected" ? (
            <Tag color="green" bordered={false} className="oa-live" data-testid="live-tag">
              <span className="oa-live-dot" />
              {t("home.live")}
            </Tag>
          ) : null}
          {data ? (
            <Typography.Text type="secondary" className="oa-updated">
              {t("home.updatedAt", { time: data.at.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" }) })}
            </Typography.Text>
          ) : null}
          <Segmented<PeriodKey> value={period} onChange={setPeriod} options={PERIODS.map((p) => ({ value: p, label: t(`home.period.${p}`) }))} data-testid="period" />
          <Tooltip title={t("home.refresh")}>
            <Button icon={<ReloadOutlined />} onClick={() => setVersion((v) => v + 1)} loading={loading && !first} aria-label={t("home.refresh")} data-testid="refresh" />
          </Tooltip>
        </div>
      </header>

      <section className="oa-kpis">
        {first ? (
          [0, 1, 2, 3, 4].map((i) => (
            <Card key={i} className="oa-kpi">
              <Skeleton active paragraph={{ rows: 1 }} title={false} />
            </Card>
          ))
        ) : (
          <>
            <Kpi testId="kpi-open" icon={<CustomerServiceOutlined />} color={STATUS_COLORS.open} label={t("home.cards.open")} value={view.figures.byStatus.open} />
            <Kpi
              testId="kpi-pending"
              icon={<HourglassOutlined />}
              color={STATUS_COLORS.pending}
              label={t("home.cards.pending")}
              value={view.figures.byStatus.pending}
              hint={view.unassigned ? t("home.cards.pendingHint", { count: view.unassigned }) : undefined}
            />
            <Kpi testId="kpi-created" icon={<InboxOutlined />} color={SERIES.created} label={t("home.cards.created")} value={view.created} hint={t("home.cards.createdHint")} />
            <Kpi testId="kpi-closed" icon={<CheckCircleOutlined />} color={STATUS_COLORS.closed} label={t("home.cards.closed")} value={view.figures.byStatus.closed} hint={t("home.cards.closedHint")} />
            <Kpi testId="kpi-avg" icon={<ClockCircleOutlined />} color="#7c3aed" label={t("home.cards.avgHandle")} value={duration(view.evolution.avgHandleSeconds, tr)} hint={t("home.cards.avgHandleHint")} />
          </>
        )}
      </section>

      <section className="oa-dash-grid">
        <Card className="oa-dash-card oa-span-2" title={<CardTitle title={t("home.evolution.title")} hint={t("home.evolution.hint")} />}>
          {first ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : (
            <>
              <div className="oa-legend">
                <span>
                  <i style={{ background: SERIES.created }} />
                  {t("home.evolution.created")}
                </span>
                <span>
                  <i style={{ background: SERIES.closed }} />
                  {t("home.evolution.closed")}
                </span>
              </div>
              <EvolutionChart days={data!.chart} locale={locale} labels={{ created: t("home.evolution.created"), closed: t("home.evolution.closed") }} />
            </>
          )}
        </Card>
        <Card className="oa-dash-card" title={<CardTitle title={t("home.statusChart.title")} hint={t("home.statusChart.hint")} />}>
          {first ? (
            <Skeleton active avatar={{ size: 120, shape: "circle" }} paragraph={{ rows: 4 }} title={false} />
          ) : (
            <div className="oa-status">
              <Donut parts={statusParts} total={view.figures.total} label={t("home.statusChart.total")} />
              <ul className="oa-status-legend">
                {statusParts.map((p) => (
                  <li key={p.key} data-testid={`status-${p.key}`}>
                    <i style={{ background: p.color }} />
                    <span>{p.label}</span>
                    <strong>{p.value}</strong>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </Card>

        <Card className="oa-dash-card" title={<CardTitle title={t("home.channels.title")} hint={t("home.channels.hint")} />}>
          {first ? (
            <Skeleton active paragraph={{ rows: 4 }} />
          ) : view.evolution.byConnection.length ? (
            <ul className="oa-channels" data-testid="channels">
              {view.evolution.byConnection.slice(0, 6).map((c) => {
                const name = c.name ?? t("home.channels.noConnection");
                const color = avatarColor(c.connectionId ?? name);
                return (
                  <li key={String(c.connectionId)}>
                    <span className="oa-channel-dot" style={{ background: color }} />
                    <span className="oa-channel-name">
                      <strong>{name}</strong>
                      {c.type ? <span>{c.type.replace(/^channel-/, "")}</span> : null}
                    </span>
                    <Sparkline values={c.daily} color={color} />
                    <strong className="oa-channel-total">{c.total}</strong>
                  </li>
                );
              })}
            </ul>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("home.channels.empty")} />
          )}
        </Card>
        <Card className="oa-dash-card oa-span-2" title={<CardTitle title={t("home.queues.title")} hint={t("home.queues.hint")} />}>
          {first ? (
            <Skeleton active paragraph={{ rows: 4 }} />
          ) : view.figures.byQueue.length ? (
            <ul className="oa-queues" data-testid="queues">
              {view.figures.byQueue.map((q) => (
                <li key={String(q.queueId)}>
                  <span className="oa-queue-name">{q.name ?? t("home.queues.noQueue")}</span>
                  <StackedBar
                    max={view.queueMax}
                    parts={(["open", "pending", "closed"] as const).map((k) => ({ key: k, value: q.counts[k], color: STATUS_COLORS[k], label: t(`home.status.${k}`) }))}
                  />
                  <span className="oa-queue-nums">
                    <Tooltip title={t("home.status.open")}>
                      <span style={{ color: STATUS_COLORS.open }}>{q.counts.open}</span>
                    </Tooltip>
                    <Tooltip title={t("home.status.pending")}>
                      <span style={{ color: STATUS_COLORS.pending }}>{q.counts.pending}</span>
                    </Tooltip>
                    <Tooltip title={t("home.status.closed")}>
                      <span style={{ color: STATUS_COLORS.closed }}>{q.counts.closed}</span>
                    </Tooltip>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("home.queues.empty")} />
          )}
        </Card>
      </section>

      <Card className="oa-dash-card" title={<CardTitle title={team ? t("home.team.title") : t("home.team.titleOwn")} hint={t("home.team.hint")} />}>
        <Table
          rowKey={(r) => String(r.userId)}
          size="middle"
          loading={first}
          dataSource={view?.team ?? []}
          pagination={false}
          scroll={{ x: 560 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("home.team.empty")} /> }}
          data-testid="team"
          columns={[
            {
              title: t("home.team.user"),
              key: "user",
              render: (_, r) => {
                const name = r.name ?? `#${r.userId}`;
                return (
                  <span className="oa-person">
                    <Avatar size={30} style={{ background: avatarColor(r.userId ?? name) }}>
                      {initials(name)}
                    </Avatar>
                    <strong>{name}</strong>
                  </span>
                );
              },
            },
            { title: t("home.team.open"), key: "open", align: "right", width: 140, render: (_, r) => r.counts.open },
            { title: t("home.team.closed"), key: "closed", align: "right", width: 120, render: (_, r) => r.counts.closed },
            { title: t("home.team.avg"), key: "avg", align: "right", width: 140, render: (_, r) => duration(r.avg, tr) },
            {
              title: t("home.team.share"),
              key: "share",
              width: 200,
              render: (_, r) => <Progress percent={Math.round(r.share * 100)} size="small" strokeColor={STATUS_COLORS.closed} format={(p) => `${p}%`} />,
            },
          ]}
        />
      </Card>

      {admin ? <MassActions users={people.users} queues={people.queues} version={version} onChanged={() => setVersion((v) => v + 1)} /> : null}
      <DashboardBlocks />
    </div>
  );
});

export default HomePage;
