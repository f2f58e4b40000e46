/** The canvas's edge: a smooth step line with an arrow, and a button on it that removes it when selected or hovered. */
import { theme } from "antd";
import { useState } from "react";
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, useReactFlow, type EdgeProps, type EdgeTypes } from "@xyflow/react";
import { CloseOutlined } from "@ant-design/icons";
import { useBuilder } from "./context";

function FlowEdge({ id, source, target, sourceHandleId, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, selected }: EdgeProps) {
  const { token: tk } = theme.useToken();
  const { deleteElements } = useReactFlow();
  const b = useBuilder();
  const [hover, setHover] = useState(false);
  const [path, labelX, labelY] = getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 12 });
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ stroke: selected ? tk.colorPrimary : tk.colorTextSecondary, strokeWidth: selected ? 2.5 : 1.6 }} interactionWidth={24} />
      <EdgeLabelRenderer>
        <button
          type="button"
          className="nodrag nopan"
          data-testid="flow-edge-delete"
          data-edge-id={id}
          data-source={source}
          data-target={target}
          data-handle={sourceHandleId ?? ""}
          aria-label={b.tr("deleteEdge")}
          title={b.tr("deleteEdge")}
          onMouseEnter={() => setHover(true)}
          onMouseLeave={() => setHover(false)}
          onClick={() => void deleteElements({ edges: [{ id }] })}
          style={{
            position: "absolute",
            transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`,
            pointerEvents: "all",
            width: 20,
            height: 20,
            borderRadius: 10,
            border: `1px solid ${tk.colorBorder}`,
            background: tk.colorBgContainer,
            color: hover || selected ? tk.colorError : tk.colorTextSecondary,
            fontSize: 10,
            cursor: "pointer",
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            padding: 0,
            opacity: hover || selected ? 1 : 0.55,
          }}
        >
          <CloseOutlined />
        </button>
      </EdgeLabelRenderer>
    </>
  );
}

export const edgeTypes: EdgeTypes = { flow: FlowEdge };
