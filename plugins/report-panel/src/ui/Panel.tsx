import { useCallback, useEffect, useRef, useState } from "react";
import { BuildingNotice, BUILDING_RETRY_MS, buildingPercent } from "@openatende/report-kit/src/ui/building";
import { useRuntime } from "./runtime";

interface Figures {
  waiting: number;
  inService: number;
  oldestWaitingSince: number | null;
  agentsOnline: number;
}
interface Line extends Figures {
  queueId: number | null;
  name: string;
  color: string | null;
}
interface Board {
  now: number;
  queues: Line[];
  total: Figures;
}

const API = "/painel-atendimentos";
const COLORS = { waiting: "#f59e0b", inService: "#38bdf8", wait: "#f87171", online: "#4ade80" };
const two = (n: number) => String(n).padStart(2, "0");

/** A wait as m:ss, h:mm:ss past an hour. */
export function waitText(ms: number | null): string {
  if (ms === null) return "—";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

function Figure({ label, value, color, big, testId }: { label: string; value: string | number; color: string; big?: boolean; testId: string }) {
  return (
    <div style={{ flex: 1, minWidth: big ? 220 : 140 }}>
      <div style={{ fontSize: big ? 22 : 15, color: "#cbd5e1", textTransform: "uppercase", letterSpacing: big ? 1 : 0.5 }}>{label}</div>
      <div data-testid={testId} style={{ fontSize: big ? 72 : 48, fontWeight: 700, color, lineHeight: 1.1, fontVariantNumeric: "tabular-nums" }}>
        {value}
      </div>
    </div>
  );
}

/**
 * /painel-atendimentos (spec §2): a wall-board in large type on a dark background, for a TV —
 * the tenant's totals, then a card per queue with the tickets waiting, in service, the longest
 * wait (ticking every second from the server's instant) and the agents online. A push of the
 * plugin (board.changed) makes it read the board again; nothing to click. While its projection
 * is being filled (first read, rebuild) it shows "rebuilding… x%" instead of partial figures,
 * and goes live when the board answers.
 */
export default function Panel() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [board, setBoard] = useState<Board | null>(null);
  /** The backfill's percent while the projection is being filled (its figures would be partial). */
  const [building, setBuilding] = useState<number | null>(null);
  const [, tick] = useState(0);
  const skew = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const load = useCallback(async () => {
    try {
      const b = await runtime.api.get<Board>(`${API}/board`, { silent: true });
      skew.current = b.now - Date.now();
      setBuilding(null);
      setBoard(b);
    } catch (err) {
      const percent = buildingPercent(err, "ERR_REPORT_PANEL");
      if (percent === null) return runtime.notify.error(err);
      setBuilding(percent);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void load(), BUILDING_RETRY_MS);
    }
  }, [runtime]);

  useEffect(() => {
    void load();
    // Pushes come in bursts (a ticket's several events): one read after the burst.
    let soon: ReturnType<typeof setTimeout> | undefined;
    const off = runtime.realtime.on("board.changed", () => {
      clearTimeout(soon);
      soon = setTimeout(() => void load(), 300);
    });
    // A missed push (a socket reconnecting) is made good within a minute.
    const every = setInterval(() => void load(), 60_000);
    const second = setInterval(() => tick((n) => n + 1), 1000);
    return () => {
      off();
      clearTimeout(soon);
      clearTimeout(timer.current);
      clearInterval(every);
      clearInterval(second);
    };
  }, [runtime, load]);

  const now = Date.now() + skew.current;
  const wait = (f: Figures) => waitText(f.oldestWaitingSince === null ? null : Math.max(0, now - f.oldestWaitingSince));
  const figures = (f: Figures, prefix: string, big?: boolean) => (
    <div style={{ display: "flex", gap: 24, flexWrap: "wrap" }}>
      <Figure big={big} label={t("waiting")} value={f.waiting} color={COLORS.waiting} testId={`${prefix}-waiting`} />
      <Figure big={big} label={t("inService")} value={f.inService} color={COLORS.inService} testId={`${prefix}-in-service`} />
      <Figure big={big} label={t("longestWait")} value={wait(f)} color={f.waiting ? COLORS.wait : "#94a3b8"} testId={`${prefix}-longest-wait`} />
      <Figure big={big} label={t("online")} value={f.agentsOnline} color={COLORS.online} testId={`${prefix}-online`} />
    </div>
  );

  return (
    <div data-testid="service-panel" style={{ minHeight: "100%", background: "#0f172a", color: "#f8fafc", padding: 32, boxSizing: "border-box" }}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "baseline", flexWrap: "wrap", gap: 16, marginBottom: 24 }}>
        <h1 style={{ fontSize: 40, margin: 0, color: "#f8fafc" }}>{t("title")}</h1>
        <div style={{ display: "flex", gap: 24, alignItems: "baseline" }}>
          {board && building === null ? <span style={{ fontSize: 18, color: "#94a3b8" }}>{t("updated", { time: new Date(board.now).toLocaleTimeString(runtime.locale) })}</span> : null}
          <span style={{ fontSize: 36, fontVariantNumeric: "tabular-nums" }}>{new Date(now).toLocaleTimeString(runtime.locale)}</span>
          <button
            type="button"
            onClick={() => void document.documentElement.requestFullscreen?.().catch(() => undefined)}
            style={{ fontSize: 16, padding: "6px 14px", background: "transparent", color: "#cbd5e1", border: "1px solid #475569", borderRadius: 6, cursor: "pointer" }}
          >
            {t("fullscreen")}
          </button>
        </div>
      </div>
      {building !== null ? <BuildingNotice runtime={runtime} percent={building} dark /> : null}
      {board && building === null ? (
        <>
          <section data-testid="panel-total" style={{ background: "#1e293b", borderRadius: 16, padding: 28, marginBottom: 28 }}>
            <div style={{ fontSize: 28, fontWeight: 600, marginBottom: 12 }}>{t("total")}</div>
            {figures(board.total, "total", true)}
          </section>
          {board.queues.length ? null : <div style={{ fontSize: 28, color: "#94a3b8" }}>{t("noQueues")}</div>}
          <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(700px, 1fr))", gap: 24 }}>
            {board.queues.map((q) => {
              const key = q.queueId ?? "none";
              return (
                <section key={key} data-testid={`panel-queue-${key}`} style={{ background: "#1e293b", borderRadius: 16, padding: 24, borderLeft: `12px solid ${q.color || "#64748b"}` }}>
                  <div style={{ fontSize: 30, fontWeight: 600, marginBottom: 12 }}>{q.queueId === null ? t("noQueue") : q.name}</div>
                  {figures(q, `queue-${key}`)}
                </section>
              );
            })}
          </div>
        </>
      ) : null}
    </div>
  );
}
