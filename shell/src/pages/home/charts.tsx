import { useEffect, useRef, useState } from "react";
import { niceAxis, shortDay } from "./format";

export const STATUS_COLORS: Record<string, string> = {
  open: "#2563eb",
  pending: "#d97706",
  closed: "#0a7d4f",
  group: "#7c3aed",
  chatbot: "#0891b2",
};
export const SERIES = { created: "#2563eb", closed: "#0a7d4f" };

interface Day {
  date: string;
  created: number;
  closed: number;
}

/** The width of an element, followed as it resizes (charts draw at their real size, so text stays legible). */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.round(e.contentRect.width) || fallback));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

/** New and resolved tickets per day: paired bars on a gridded axis. */
export function EvolutionChart({ days, locale, labels }: { days: Day[]; locale: string; labels: { created: string; closed: string } }) {
  const [box, measured] = useWidth<HTMLDivElement>(720);
  const W = Math.max(260, measured);
  const H = 250;
  const pad = { l: 32, r: 4, t: 10, b: 26 };
  const { max, step } = niceAxis(Math.max(...days.map((d) => Math.max(d.created, d.closed)), 0));
  const cw = (W - pad.l - pad.r) / Math.max(1, days.length);
  const bw = Math.max(2, Math.min(18, cw * 0.32));
  const y = (v: number) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  // Day labels need about 44 px each.
  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor((W - pad.l) / 44))));
  const ticks = [0, 1, 2, 3, 4].map((i) => i * step);
  return (
    <div ref={box} className="oa-chart-box">
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} className="oa-chart" role="img" aria-label={`${labels.created} / ${labels.closed}`} data-testid="evolution-chart">
        {ticks.map((v) => (
          <g key={v}>
            <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} className="oa-grid" />
            <text x={pad.l - 8} y={y(v) + 4} textAnchor="end" className="oa-axis">
              {v}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = pad.l + cw * i + cw / 2;
          return (
            <g key={d.date} className="oa-bar-group">
              <title>{`${shortDay(d.date, locale)} · ${labels.created}: ${d.created} · ${labels.closed}: ${d.closed}`}</title>
              <rect x={pad.l + cw * i} y={pad.t} width={cw} height={H - pad.t - pad.b} className="oa-hover" />
              <rect x={x - bw - 1} y={y(d.created)} width={bw} height={Math.max(0, y(0) - y(d.created))} rx={Math.min(3, bw / 2)} fill={SERIES.created} />
              <rect x={x + 1} y={y(d.closed)} width={bw} height={Math.max(0, y(0) - y(d.closed))} rx={Math.min(3, bw / 2)} fill={SERIES.closed} />
              {(days.length - 1 - i) % every === 0 ? (
                <text x={x} y={H - 8} textAnchor="middle" className="oa-axis">
                  {shortDay(d.date, locale)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** Shares of a whole as a ring, the total in the middle. */
export function Donut({ parts, total, label }: { parts: Array<{ key: string; value: number; color: string }>; total: number; label: string }) {
  const r = 52;
  const c = 2 * Math.PI * r;
  let acc = 0;
  return (
    <svg viewBox="0 0 140 140" className="oa-donut" role="img" aria-label={`${label}: ${total}`} data-testid="status-donut">
      <circle cx="70" cy="70" r={r} className="oa-donut-track" strokeWidth="16" fill="none" />
      {total > 0
        ? parts
            .filter((p) => p.value > 0)
            .map((p) => {
              const len = (p.value / total) * c;
              const el = <circle key={p.key} cx="70" cy="70" r={r} fill="none" stroke={p.color} strokeWidth="16" strokeDasharray={`${len} ${c - len}`} strokeDashoffset={-acc} transform="rotate(-90 70 70)" />;
              acc += len;
              return el;
            })
        : null}
      <text x="70" y="68" textAnchor="middle" className="oa-donut-value">
        {total}
      </text>
      <text x="70" y="86" textAnchor="middle" className="oa-axis">
        {label}
      </text>
    </svg>
  );
}

/** A small area line of daily values. */
export function Sparkline({ values, color }: { values: number[]; color: string }) {
  const W = 160;
  const H = 36;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? W / (values.length - 1) : W;
  const pts = values.map((v, i) => [values.length > 1 ? i * step : W / 2, H - 3 - (v / max) * (H - 6)] as const);
  const line = pts.map(([x, yy]) => `${x.toFixed(1)},${yy.toFixed(1)}`).join(" ");
  const area = `0,${H} ${line} ${W},${H}`;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="oa-spark" preserveAspectRatio="none" aria-hidden="true">
      <polygon points={area} fill={color} opacity="0.12" />
      <polyline points={line} fill="none" stroke={color} strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** One row's parts as a stacked horizontal bar, scaled to the largest row. */
export function StackedBar({ parts, max }: { parts: Array<{ key: string; value: number; color: string; label: string }>; max: number }) {
  return (
    <div className="oa-stack" role="img" aria-label={parts.map((p) => `${p.label}: ${p.value}`).join(", ")}>
      {parts
        .filter((p) => p.value > 0)
        .map((p) => (
          <span key={p.key} style={{ width: `${(p.value / Math.max(1, max)) * 100}%`, background: p.color }} title={`${p.label}: ${p.value}`} />
        ))}
    </div>
  );
}
