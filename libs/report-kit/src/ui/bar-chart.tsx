/**
 * A horizontal stacked bar chart in plain SVG (no chart library): one bar per item, one
 * coloured segment per series, its value written at the bar's end, a legend on top. Shared by
 * the report pages that would rather show than list (per-user statistics, contacts by state).
 */
export interface BarSeries {
  key: string;
  label: string;
  color: string;
}

export interface BarItem {
  label: string;
  values: Record<string, number>;
}

const ROW = 26;
const LABEL_W = 170;
const pt = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });

export function BarChart({ items, series, width = 760, testId }: { items: BarItem[]; series: BarSeries[]; width?: number; testId?: string }) {
  const sum = (i: BarItem) => series.reduce((a, s) => a + (i.values[s.key] ?? 0), 0);
  const max = Math.max(1, ...items.map(sum));
  const plot = width - LABEL_W - 60;
  const height = 28 + items.length * ROW;
  return (
    <svg width="100%" viewBox={`0 0 ${width} ${height}`} style={{ maxWidth: width, display: "block" }} role="img" data-testid={testId}>
      {series.map((s, k) => (
        <g key={s.key} transform={`translate(${LABEL_W + k * 140}, 6)`}>
          <rect width={12} height={12} fill={s.color} rx={2} />
          <text x={18} y={10} fontSize={12} fill="#444">
            {s.label}
          </text>
        </g>
      ))}
      {items.map((item, n) => {
        const y = 28 + n * ROW;
        let x = LABEL_W;
        return (
          <g key={`${item.label}-${n}`} data-bar={item.label}>
            <text x={LABEL_W - 8} y={y + 15} fontSize={12} textAnchor="end" fill="#222">
              {item.label.length > 24 ? `${item.label.slice(0, 23)}…` : item.label}
            </text>
            {series.map((s) => {
              const v = item.values[s.key] ?? 0;
              const w = (v / max) * plot;
              const rect = (
                <rect key={s.key} x={x} y={y + 3} width={w} height={ROW - 8} fill={s.color}>
                  <title>{`${s.label}: ${pt.format(v)}`}</title>
                </rect>
              );
              x += w;
              return rect;
            })}
            <text x={x + 6} y={y + 15} fontSize={12} fill="#444">
              {pt.format(sum(item))}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
