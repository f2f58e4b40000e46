import type { ReactNode } from "react";
import { Button, Space, Tooltip, theme } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from "@ant-design/icons";

/** A labelled control of the side panels (a vertical form row without a Form instance). */
export function Field({ label, hint, error, children, testid }: { label: ReactNode; hint?: ReactNode; error?: ReactNode; children: ReactNode; testid?: string }) {
  const { token: tk } = theme.useToken();
  return (
    <div style={{ marginBottom: 12 }} data-testid={testid}>
      <div style={{ fontSize: 12, fontWeight: 500, color: tk.colorText, marginBottom: 4 }}>{label}</div>
      {children}
      {hint ? <div style={{ fontSize: 11, color: tk.colorTextSecondary, marginTop: 2 }}>{hint}</div> : null}
      {error ? (
        <div role="alert" style={{ fontSize: 12, color: tk.colorError, marginTop: 2 }}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** A bordered block of a list (an interaction, a condition, an option) with move and remove buttons. */
export function ItemBox({
  title,
  children,
  onUp,
  onDown,
  onRemove,
  labels,
  testid,
}: {
  title: ReactNode;
  children: ReactNode;
  onUp?: () => void;
  onDown?: () => void;
  onRemove?: () => void;
  labels: { up: string; down: string; remove: string };
  testid?: string;
}) {
  const { token: tk } = theme.useToken();
  return (
    <div data-testid={testid} style={{ border: `1px solid ${tk.colorBorderSecondary}`, borderRadius: 8, padding: "8px 10px", marginBottom: 8, background: tk.colorFillQuaternary }}>
      <div style={{ display: "flex", alignItems: "center", marginBottom: 6 }}>
        <span style={{ fontSize: 12, fontWeight: 600, color: tk.colorTextSecondary }}>{title}</span>
        <Space size={2} style={{ marginInlineStart: "auto" }}>
          {onUp ? (
            <Tooltip title={labels.up}>
              <Button size="small" type="text" icon={<ArrowUpOutlined />} onClick={onUp} aria-label={labels.up} />
            </Tooltip>
          ) : null}
          {onDown ? (
            <Tooltip title={labels.down}>
              <Button size="small" type="text" icon={<ArrowDownOutlined />} onClick={onDown} aria-label={labels.down} />
            </Tooltip>
          ) : null}
          {onRemove ? (
            <Tooltip title={labels.remove}>
              <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={labels.remove} data-testid="flow-item-remove" />
            </Tooltip>
          ) : null}
        </Space>
      </div>
      {children}
    </div>
  );
}

/** A copy of `list` with item i moved by `by` (−1 up, +1 down). */
export function move<T>(list: T[], i: number, by: number): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return list;
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}
