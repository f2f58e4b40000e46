/**
 * The canvas's node components, one per NodeType (the same drawing, told apart by icon, colour
 * and outputs): the type, the node's name and a one-line summary, a target handle (all but
 * start) and one source handle per output (menu options, true/false, success/error). A node
 * of the selected run is outlined in its run state's colour.
 */
import { theme } from "antd";
import { memo, type CSSProperties, type ReactNode } from "react";
import { Handle, Position, type NodeProps, type NodeTypes } from "@xyflow/react";
import {
  ApiOutlined,
  BranchesOutlined,
  CheckCircleOutlined,
  MessageOutlined,
  PlayCircleOutlined,
  QuestionCircleOutlined,
  StopOutlined,
  SwapOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { NODE_TYPES, type NodeType } from "../../model";
import { hasInput, outputsOf, type RfNode } from "./convert";
import { NODE_COLORS, RUN_COLORS, summaryOf, useBuilder } from "./context";

export const NODE_ICONS: Record<NodeType, ReactNode> = {
  start: <PlayCircleOutlined />,
  message: <MessageOutlined />,
  question: <QuestionCircleOutlined />,
  menu: <UnorderedListOutlined />,
  condition: <BranchesOutlined />,
  transfer: <SwapOutlined />,
  webhook: <ApiOutlined />,
  end: <StopOutlined />,
};

const handleStyle = (color: string, bg: string): CSSProperties => ({ width: 12, height: 12, background: bg, border: `2px solid ${color}` });

function FlowNodeView({ id, type, data, selected }: NodeProps<RfNode>) {
  const { token: tk } = theme.useToken();
  const b = useBuilder();
  const nodeType = type as NodeType;
  const color = NODE_COLORS[nodeType];
  const lr = b.direction === "LR";
  const run = b.runStates.get(id);
  const outputs = outputsOf(data);
  const label = (l: string) => (l.startsWith("#") ? (/^#\d+$/.test(l) ? l : b.tr(l.slice(1))) : l);
  const invalid = b.invalid.has(id);
  const border = run ? RUN_COLORS[run] : selected ? tk.colorPrimary : invalid ? tk.colorErrorBorder : tk.colorBorder;
  return (
    <div
      data-testid="flow-node"
      data-node-type={nodeType}
      data-node-name={data.name}
      data-run-state={run ?? ""}
      data-invalid={invalid ? "true" : undefined}
      style={{
        width: 240,
        background: tk.colorBgContainer,
        borderRadius: 10,
        border: `${run || selected ? 2 : 1}px ${invalid && !run && !selected ? "dashed" : "solid"} ${border}`,
        boxShadow: selected ? `0 0 0 3px ${tk.colorPrimaryBg}` : tk.boxShadowTertiary,
        fontSize: 12,
      }}
    >
      {hasInput(nodeType) ? <Handle type="target" position={lr ? Position.Left : Position.Top} style={handleStyle(color, tk.colorBgContainer)} /> : null}
      <div style={{ display: "flex", alignItems: "center", gap: 6, padding: "6px 10px", borderBottom: `1px solid ${tk.colorBorderSecondary}`, color, fontWeight: 600 }}>
        {NODE_ICONS[nodeType]}
        <span style={{ textTransform: "uppercase", fontSize: 10, letterSpacing: 0.6 }}>{b.tr(`type.${nodeType}`)}</span>
        {run ? (
          <span data-testid="flow-node-run" style={{ marginInlineStart: "auto", color: RUN_COLORS[run], fontSize: 10 }}>
            {b.tr(`run.${run}`)}
          </span>
        ) : null}
      </div>
      <div style={{ padding: "6px 10px 8px" }}>
        <div data-testid="flow-node-name" style={{ fontWeight: 600, fontSize: 13, color: tk.colorText, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
          {data.name || b.tr(`type.${nodeType}`)}
        </div>
        <div data-testid="flow-node-summary" style={{ color: tk.colorTextSecondary, marginTop: 2, overflowWrap: "anywhere" }}>
          {summaryOf(data, b)}
        </div>
      </div>
      {outputs.length === 1 && outputs[0].id === null ? (
        <Handle type="source" position={lr ? Position.Right : Position.Bottom} style={handleStyle(color, tk.colorBgContainer)} />
      ) : outputs.length ? (
        <div style={{ display: "flex", flexDirection: lr ? "column" : "row", borderTop: `1px solid ${tk.colorBorderSecondary}` }}>
          {outputs.map((o) => (
            <div
              key={o.id}
              data-testid="flow-node-output"
              data-handle={o.id ?? ""}
              style={{
                position: "relative",
                flex: 1,
                minWidth: 0,
                padding: lr ? "4px 14px 4px 10px" : "4px 4px 10px",
                textAlign: lr ? "right" : "center",
                fontSize: 11,
                color: o.id === "false" || o.id === "error" ? tk.colorError : tk.colorTextSecondary,
                overflow: "hidden",
                textOverflow: "ellipsis",
                whiteSpace: "nowrap",
              }}
            >
              {label(o.label)}
              <Handle id={o.id ?? undefined} type="source" position={lr ? Position.Right : Position.Bottom} style={handleStyle(color, tk.colorBgContainer)} />
            </div>
          ))}
        </div>
      ) : (
        <div style={{ padding: "0 10px 6px", color: tk.colorTextQuaternary, fontSize: 11 }}>
          <CheckCircleOutlined /> {b.tr("finishes")}
        </div>
      )}
    </div>
  );
}

const View = memo(FlowNodeView);

/** The nodeTypes map given to <ReactFlow> (a module constant, so React Flow never re-creates it). */
export const nodeTypes: NodeTypes = Object.fromEntries(NODE_TYPES.map((t) => [t, View]));
