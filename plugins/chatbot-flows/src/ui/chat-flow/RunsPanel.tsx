/**
 * The flow's recent runs (spec §4 Flow node run states): each conversation with its contact,
 * status and time; the chosen one colours the nodes it went through (success, error, warning,
 * running) and lists its steps.
 */
import { useCallback, useEffect, useState } from "react";
import { Button, Empty, Spin, Tag, Tooltip, theme } from "antd";
import { CloseOutlined, ReloadOutlined } from "@ant-design/icons";
import type { FlowRun, RunState } from "../../model";
import { flowsApi } from "./api";
import { RUN_COLORS, useBuilder } from "./context";
import type { RfNode } from "./convert";

/** Each node's latest state in a run. */
export function runStatesOf(run: FlowRun | null): Map<string, RunState> {
  const m = new Map<string, RunState>();
  for (const s of run?.steps ?? []) m.set(s.nodeId, s.state);
  return m;
}

const STATUS_COLORS: Record<FlowRun["status"], string> = { running: "processing", handedOff: "success", closed: "default", expired: "warning", cancelled: "error" };

export function RunsPanel({ flowId, nodes, selected, onSelect, onClose }: { flowId: number; nodes: RfNode[]; selected: FlowRun | null; onSelect: (r: FlowRun | null) => void; onClose: () => void }) {
  const { token: tk } = theme.useToken();
  const b = useBuilder();
  const [runs, setRuns] = useState<FlowRun[] | null>(null);
  const load = useCallback(async () => {
    setRuns(null);
    try {
      const list = await flowsApi(b.rt).runs(flowId);
      setRuns(list);
    } catch (err) {
      b.rt.notify.error(err);
      setRuns([]);
    }
  }, [b.rt, flowId]);
  useEffect(() => void load(), [load]);
  const when = (iso: string) => new Date(iso).toLocaleString(b.rt.locale);
  const nodeName = (id: string) => nodes.find((n) => n.id === id)?.data.name ?? id;
  return (
    <aside data-testid="flow-runs-panel" style={{ width: 320, flex: "none", borderInlineStart: `1px solid ${tk.colorBorderSecondary}`, background: tk.colorBgContainer, display: "flex", flexDirection: "column", minHeight: 0 }}>
      <div style={{ display: "flex", alignItems: "center", gap: 4, padding: "10px 12px", borderBottom: `1px solid ${tk.colorBorderSecondary}`, fontWeight: 600 }}>
        <span>{b.tr("runsTitle")}</span>
        <Tooltip title={b.tr("reload")}>
          <Button size="small" type="text" icon={<ReloadOutlined />} style={{ marginInlineStart: "auto" }} onClick={() => void load()} aria-label={b.tr("reload")} />
        </Tooltip>
        <Button size="small" type="text" icon={<CloseOutlined />} onClick={onClose} aria-label={b.tr("closePanel")} />
      </div>
      <div style={{ display: "flex", gap: 6, flexWrap: "wrap", padding: "6px 12px", borderBottom: `1px solid ${tk.colorBorderSecondary}` }}>
        {(Object.keys(RUN_COLORS) as RunState[]).map((s) => (
          <span key={s} style={{ fontSize: 11, display: "inline-flex", alignItems: "center", gap: 4 }}>
            <span style={{ width: 10, height: 10, borderRadius: 5, background: RUN_COLORS[s], display: "inline-block" }} />
            {b.tr(`run.${s}`)}
          </span>
        ))}
      </div>
      <div style={{ overflowY: "auto", flex: 1 }}>
        {runs === null ? (
          <Spin style={{ display: "block", margin: 24 }} />
        ) : !runs.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={b.tr("runsEmpty")} />
        ) : (
          runs.map((r) => {
            const on = selected?.id === r.id;
            return (
              <div key={r.id} data-testid="flow-run" data-run-id={r.id} style={{ borderBottom: `1px solid ${tk.colorSplit}`, background: on ? tk.colorPrimaryBg : undefined }}>
                <button
                  type="button"
                  onClick={() => onSelect(on ? null : r)}
                  style={{ all: "unset", display: "block", width: "100%", boxSizing: "border-box", padding: "8px 12px", cursor: "pointer" }}
                  aria-pressed={on}
                >
                  <div style={{ display: "flex", alignItems: "center", gap: 6 }}>
                    <span style={{ fontWeight: 600, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{r.contactName}</span>
                    <span style={{ color: tk.colorTextSecondary, fontSize: 11 }}>#{r.ticketId}</span>
                    <Tag color={STATUS_COLORS[r.status]} style={{ marginInlineStart: "auto", marginInlineEnd: 0 }}>
                      {b.tr(`runStatus.${r.status}`)}
                    </Tag>
                  </div>
                  <div style={{ color: tk.colorTextSecondary, fontSize: 11 }}>{when(r.startedAt)}</div>
                </button>
                {on ? (
                  <ol style={{ margin: 0, padding: "0 12px 8px 32px", fontSize: 12 }} data-testid="flow-run-steps">
                    {r.steps.map((s, i) => (
                      <li key={i} style={{ color: RUN_COLORS[s.state] }}>
                        <span style={{ color: tk.colorText }}>{nodeName(s.nodeId)}</span> — {b.tr(`run.${s.state}`)}
                        {s.detail ? <div style={{ color: tk.colorTextSecondary }}>{s.detail}</div> : null}
                      </li>
                    ))}
                  </ol>
                ) : null}
              </div>
            );
          })
        )}
      </div>
    </aside>
  );
}
