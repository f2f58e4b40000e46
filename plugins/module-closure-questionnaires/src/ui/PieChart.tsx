/** A pie chart in plain SVG: one slice per item with a count, its share written in the legend. */
const COLORS = ["#15803d", "#0e7490", "#f59e0b", "#7c3aed", "#dc2626", "#2563eb", "#db2777", "#65a30d", "#ea580c", "#475569"];
const pct = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 });

export function PieChart({ items, testId }: { items: Array<{ label: string; count: number }>; testId?: string }) {
  const total = items.reduce((a, i) => a + i.count, 0);
  const r = 80;
  let angle = -Math.PI / 2;
  const slices = items
    .map((item, n) => ({ ...item, color: COLORS[n % COLORS.length] }))
    .filter((i) => i.count > 0)
    .map((item) => {
      const sweep = (item.count / total) * Math.PI * 2;
      const a0 = angle;
      angle += sweep;
      const [x0, y0, x1, y1] = [r * Math.cos(a0), r * Math.sin(a0), r * Math.cos(angle), r * Math.sin(angle)];
      const d = sweep >= Math.PI * 2 - 1e-9 ? `M ${-r} 0 A ${r} ${r} 0 1 1 ${r} 0 A ${r} ${r} 0 1 1 ${-r} 0 Z` : `M 0 0 L ${x0} ${y0} A ${r} ${r} 0 ${sweep > Math.PI ? 1 : 0} 1 ${x1} ${y1} Z`;
      return { ...item, d };
    });
  return (
    <svg width="100%" viewBox={`0 0 460 ${Math.max(180, 20 + items.length * 22)}`} style={{ maxWidth: 460, display: "block" }} role="img" data-testid={testId}>
      <g transform="translate(90, 90)">
        {slices.map((s) => (
          <path key={s.label} d={s.d} fill={s.color} stroke="#fff" strokeWidth={1}>
            <title>{`${s.label}: ${s.count}`}</title>
          </path>
        ))}
      </g>
      {items.map((item, n) => (
        <g key={item.label} transform={`translate(200, ${14 + n * 22})`} data-slice={item.label}>
          <rect width={12} height={12} fill={COLORS[n % COLORS.length]} rx={2} />
          <text x={18} y={11} fontSize={12} fill="#222">
            {`${item.label.length > 26 ? `${item.label.slice(0, 25)}…` : item.label}: ${item.count} (${pct.format(total ? item.count / total : 0)})`}
          </text>
        </g>
      ))}
    </svg>
  );
}
