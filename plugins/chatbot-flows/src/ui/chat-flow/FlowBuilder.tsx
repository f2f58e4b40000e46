/**
 * The chat-flow builder (/configuracoes/chat-flow/builder/:id): the flow's graph on a React
 * Flow canvas with a node palette, zoom controls and a minimap; the selected node edited in a
 * side panel; connections checked by the flows' own graph rules (self links and loops refused
 * with a notice); automatic layouts; full screen; the flow's settings, help, recent runs;
 * download as JSON and save (the server checks the graph again; its errors are the shell's
 * notices).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  Background,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
  useUpdateNodeInternals,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { Alert, Button, Modal, Result, Spin, Tooltip, theme } from "antd";
import { useBlocker } from "react-router-dom";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { validateGraph } from "../../flows/graph";
import { NODE_TYPES, type Flow, type FlowExport, type FlowRun, type NodeData, type NodeType } from "../../model";
import { downloadJson, exportFileName, flowsApi, loadTargets, type Named } from "./api";
import { useConnectRules, edgeOnOutput } from "./connect";
import { BuilderContext, NODE_COLORS, chatFlowT, type BuilderCtx } from "./context";
import { EDGE_DEFAULTS, defaultData, fromCanvas, guessDirection, newId, pruneEdges, toCanvas, type RfEdge, type RfNode } from "./convert";
import { edgeTypes } from "./edges";
import { useFullscreen } from "./fullscreen";
import { HelpDrawer } from "./HelpDrawer";
import { applyLayout, layoutDirection, type LayoutName } from "./layout";
import { NodePanel } from "./NodePanel";
import { NODE_ICONS, nodeTypes } from "./nodes";
import { RunsPanel, runStatesOf } from "./RunsPanel";
import { SettingsDrawer, type FlowMeta } from "./SettingsDrawer";
import { Toolbar } from "./Toolbar";

const NOTICE_MS = 6000;

interface Props {
  rt: ShellRuntime;
  flowId: number;
  onBack(): void;
}

function Builder({ rt, flowId, onBack, flow, targets }: Props & { flow: Flow; targets: { queues: Named[]; users: Named[] } }) {
  const { token: tk } = theme.useToken();
  const tr = useMemo(() => chatFlowT(rt), [rt]);
  const initial = useMemo(() => toCanvas(flow.graph), [flow]);
  const [nodes, setNodes, onNodesChangeRaw] = useNodesState<RfNode>(initial.nodes);
  const [edges, setEdges, onEdgesChangeRaw] = useEdgesState<RfEdge>(initial.edges);
  const [meta, setMeta] = useState<FlowMeta>({ name: flow.name, description: flow.description, active: flow.active, settings: flow.settings });
  const [direction, setDirection] = useState<"TB" | "LR">(() => guessDirection(initial.nodes, initial.edges));
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ code: string; n: number } | null>(null);
  const [drawer, setDrawer] = useState<"settings" | "help" | null>(null);
  const [runsOpen, setRunsOpen] = useState(false);
  const [run, setRun] = useState<FlowRun | null>(null);
  const [fitSeq, setFitSeq] = useState(0);
  const wrapper = useRef<HTMLDivElement>(null);
  const rf = useReactFlow<RfNode, RfEdge>();
  const updateNodeInternals = useUpdateNodeInternals();

  // The shell's dark theme: React Flow's own controls and minimap follow it.
  const dark = useMemo(() => {
    const m = /^#([0-9a-f]{6})/i.exec(tk.colorBgContainer);
    if (!m) return false;
    const n = parseInt(m[1], 16);
    return ((n >> 16) & 255) * 0.299 + ((n >> 8) & 255) * 0.587 + (n & 255) * 0.114 < 128;
  }, [tk.colorBgContainer]);
  const fit = useCallback(() => void rf.fitView({ padding: 0.15, duration: 200 }), [rf]);
  const { fullscreen, toggle, exit } = useFullscreen(wrapper, fit);

  const showNotice = useCallback((code: string) => setNotice((n) => ({ code, n: (n?.n ?? 0) + 1 })), []);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const { isValidConnection, onConnectEnd } = useConnectRules(showNotice);

  // After a layout or a direction change: handles moved, then the view fits the new drawing.
  useEffect(() => {
    if (!fitSeq) return;
    const id = requestAnimationFrame(() => {
      updateNodeInternals(rf.getNodes().map((n) => n.id));
      fit();
    });
    return () => cancelAnimationFrame(id);
  }, [fitSeq, fit, rf, updateNodeInternals]);

  const onNodesChange = useCallback(
    (changes: NodeChange<RfNode>[]) => {
      if (changes.some((c) => c.type !== "select" && c.type !== "dimensions")) setDirty(true);
      onNodesChangeRaw(changes);
    },
    [onNodesChangeRaw],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<RfEdge>[]) => {
      if (changes.some((c) => c.type !== "select")) setDirty(true);
      onEdgesChangeRaw(changes);
    },
    [onEdgesChangeRaw],
  );
  const onConnect = useCallback(
    (c: Connection) => {
      setEdges((eds) => {
        const old = edgeOnOutput(eds, c);
        return [...eds.filter((e) => e !== old), { ...EDGE_DEFAULTS, id: newId("e"), source: c.source, target: c.target, sourceHandle: c.sourceHandle ?? null }];
      });
      setDirty(true);
    },
    [setEdges],
  );

  const selected = nodes.filter((n) => n.selected);
  const current = selected.length === 1 ? selected[0] : null;

  const updateData = (id: string, data: NodeData) => {
    const next = nodes.map((n) => (n.id === id ? { ...n, data } : n));
    setNodes(next);
    setEdges((eds) => pruneEdges(next, eds));
    setDirty(true);
    requestAnimationFrame(() => updateNodeInternals(id));
  };

  const addNode = (type: NodeType) => {
    const box = wrapper.current?.querySelector(".react-flow")?.getBoundingClientRect();
    const centre = box ? rf.screenToFlowPosition({ x: box.left + box.width / 2 - 120, y: box.top + box.height / 3 }) : { x: 0, y: 0 };
    const step = (nodes.length % 8) * 28;
    const node: RfNode = { id: newId("n"), type, position: { x: centre.x + step, y: centre.y + step }, data: defaultData(type, tr(`type.${type}`)), selected: true };
    setNodes((ns) => [...ns.map((n) => (n.selected ? { ...n, selected: false } : n)), node]);
    setDirty(true);
  };

  const layout = async (name: LayoutName) => {
    const laid = await applyLayout(name, rf.getNodes(), rf.getEdges());
    setDirection(layoutDirection(name));
    setNodes(laid);
    setDirty(true);
    setFitSeq((s) => s + 1);
  };

  const graph = useMemo(() => fromCanvas(nodes, edges), [nodes, edges]);
  const problems = useMemo(() => validateGraph(graph), [graph]);
  const invalidIds = useMemo(() => new Set(problems.flatMap((p) => [p.data.nodeId, ...((p.data.nodeIds as unknown[]) ?? [])]).filter((x): x is string => typeof x === "string")), [problems]);
  const problemLines = problems.map((p) => tr(`problem.${p.code}`, p.data));

  const save = async () => {
    if (!meta.name.trim()) return setDrawer("settings");
    setSaving(true);
    try {
      const saved = await flowsApi(rt).update(
        flowId,
        { name: meta.name.trim(), description: meta.description, active: meta.active, settings: meta.settings, graph: fromCanvas(rf.getNodes(), rf.getEdges(), rf.getViewport()) },
        { successNotice: true },
      );
      setMeta({ name: saved.name, description: saved.description, active: saved.active, settings: saved.settings });
      setDirty(false);
    } catch {
      // The shell showed the server's error; out of full screen, so it can be read.
      await exit();
    } finally {
      setSaving(false);
    }
  };

  const download = () => {
    const doc: FlowExport = {
      format: "openatende-flow",
      version: 1,
      flow: { kind: "chat", name: meta.name, description: meta.description, settings: meta.settings, graph: fromCanvas(rf.getNodes(), rf.getEdges(), rf.getViewport()), steps: null, testPhone: flow.testPhone },
    };
    downloadJson(exportFileName(meta.name), doc);
  };

  // Leaving with unsaved changes (back, the menu, the settings tabs) asks first; so does closing the tab.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state === "blocked") void exit();
  }, [blocker.state, exit]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const ctx: BuilderCtx = useMemo(
    () => ({ rt, tr, direction, runStates: runStatesOf(run), invalid: invalidIds, queues: targets.queues, users: targets.users }),
    [rt, tr, direction, run, invalidIds, targets],
  );
  const container = () => wrapper.current ?? document.body;

  return (
    <BuilderContext.Provider value={ctx}>
      <div
        ref={wrapper}
        data-testid="flow-builder"
        data-settings-wide=""
        data-flow-id={flowId}
        data-direction={direction}
        style={{
          position: "relative",
          display: "flex",
          flexDirection: "column",
          background: tk.colorBgContainer,
          border: fullscreen ? "none" : `1px solid ${tk.colorBorderSecondary}`,
          borderRadius: fullscreen ? 0 : 8,
          height: fullscreen ? "100vh" : "calc(100vh - 210px)",
          minHeight: 520,
          width: "100%",
          overflow: "hidden",
        }}
      >
        <Toolbar
          name={meta.name}
          active={meta.active}
          dirty={dirty}
          saving={saving}
          problems={problemLines}
          fullscreen={fullscreen}
          runsOpen={runsOpen}
          onBack={onBack}
          onActive={(active) => {
            setMeta({ ...meta, active });
            setDirty(true);
          }}
          onLayout={(l) => void layout(l)}
          onFullscreen={() => void toggle()}
          onRuns={() => {
            if (runsOpen) setRun(null);
            setRunsOpen(!runsOpen);
          }}
          onSettings={() => setDrawer("settings")}
          onHelp={() => setDrawer("help")}
          onDownload={download}
          onSave={() => void save()}
        />
        <div style={{ display: "flex", flex: 1, minHeight: 0 }}>
          <div style={{ flex: 1, minWidth: 0, position: "relative" }} data-testid="flow-canvas" data-node-count={nodes.length} data-edge-count={edges.length}>
            <ReactFlow<RfNode, RfEdge>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              edgeTypes={edgeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onConnectEnd={onConnectEnd}
              isValidConnection={isValidConnection}
              defaultEdgeOptions={EDGE_DEFAULTS}
              deleteKeyCode={["Backspace", "Delete"]}
              defaultViewport={flow.graph?.viewport}
              fitView={!flow.graph?.viewport}
              fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
              minZoom={0.2}
              maxZoom={2}
              proOptions={{ hideAttribution: true }}
              colorMode={dark ? "dark" : "light"}
            >
              <Background gap={18} color={tk.colorBorderSecondary} />
              <Controls showInteractive={false} position="bottom-left" />
              <MiniMap pannable zoomable position="bottom-right" nodeColor={(n) => NODE_COLORS[n.type as NodeType] ?? tk.colorTextQuaternary} style={{ width: 160, height: 110 }} />
              <Panel position="top-left">
                <div data-testid="flow-palette" style={{ display: "flex", flexDirection: "column", gap: 4, background: tk.colorBgContainer, padding: 6, borderRadius: 8, boxShadow: "0 1px 4px rgba(0,0,0,.12)" }}>
                  <div style={{ fontSize: 11, color: tk.colorTextSecondary, padding: "0 2px" }}>{tr("addNode")}</div>
                  {NODE_TYPES.filter((t) => t !== "start").map((t) => (
                    <Tooltip key={t} title={tr(`nodeHelp.${t}`)} placement="right">
                      <Button size="small" icon={NODE_ICONS[t]} style={{ justifyContent: "flex-start", color: NODE_COLORS[t] }} onClick={() => addNode(t)} data-testid={`flow-palette-${t}`}>
                        <span style={{ color: tk.colorText }}>{tr(`type.${t}`)}</span>
                      </Button>
                    </Tooltip>
                  ))}
                </div>
              </Panel>
              {notice ? (
                <Panel position="top-center">
                  <Alert key={notice.n} type="warning" showIcon title={tr(`notice.${notice.code}`)} closable={{ onClose: () => setNotice(null) }} data-testid="flow-notice" data-code={notice.code} />
                </Panel>
              ) : null}
            </ReactFlow>
          </div>
          {current ? (
            <NodePanel
              key={current.id}
              node={current}
              onChange={(d) => updateData(current.id, d)}
              onDelete={() => void rf.deleteElements({ nodes: [{ id: current.id }] })}
              onClose={() => setNodes((ns) => ns.map((n) => (n.selected ? { ...n, selected: false } : n)))}
            />
          ) : null}
          {runsOpen ? (
            <RunsPanel
              flowId={flowId}
              nodes={nodes}
              selected={run}
              onSelect={setRun}
              onClose={() => {
                setRunsOpen(false);
                setRun(null);
              }}
            />
          ) : null}
        </div>
        <SettingsDrawer
          open={drawer === "settings"}
          meta={meta}
          container={container}
          onClose={() => setDrawer(null)}
          onChange={(m) => {
            setMeta(m);
            setDirty(true);
          }}
        />
        <HelpDrawer open={drawer === "help"} onClose={() => setDrawer(null)} container={container} />
        <Modal
          open={blocker.state === "blocked"}
          title={tr("leaveTitle")}
          okText={tr("leave")}
          cancelText={tr("stay")}
          okButtonProps={{ danger: true, "data-testid": "flow-leave-ok" }}
          cancelButtonProps={{ "data-testid": "flow-leave-cancel" }}
          onOk={() => blocker.proceed?.()}
          onCancel={() => blocker.reset?.()}
        >
          {tr("leaveText")}
        </Modal>
      </div>
    </BuilderContext.Provider>
  );
}

/** Loads the flow and the tenant's queues and users, then draws the builder. */
export function FlowBuilder(props: Props) {
  const { rt, flowId, onBack } = props;
  const tr = useMemo(() => chatFlowT(rt), [rt]);
  const [flow, setFlow] = useState<Flow | null>(null);
  const [error, setError] = useState<{ title: string; detail?: string } | null>(null);
  const [targets, setTargets] = useState<{ queues: Named[]; users: Named[] } | null>(null);
  useEffect(() => {
    let live = true;
    setFlow(null);
    setError(null);
    flowsApi(rt)
      .get(flowId, { silent: true })
      .then(
        (f) => live && setFlow(f),
        (err: { title?: string; detail?: string }) => live && setError({ title: err?.title || tr("loadFailed"), detail: err?.detail }),
      );
    loadTargets(rt).then((t) => live && setTargets(t));
    return () => {
      live = false;
    };
  }, [rt, flowId, tr]);
  if (error)
    return (
      <Result
        status="warning"
        title={error.title}
        subTitle={error.detail}
        data-testid="flow-load-error"
        extra={
          <Button type="primary" onClick={onBack}>
            {tr("backToList")}
          </Button>
        }
      />
    );
  if (!flow || !targets) return <Spin style={{ display: "block", margin: 48 }} data-testid="flow-loading" />;
  if (flow.kind !== "chat") return <Result status="warning" title={tr("notChatFlow")} extra={<Button onClick={onBack}>{tr("backToList")}</Button>} />;
  return (
    <ReactFlowProvider>
      <Builder key={flow.id} {...props} flow={flow} targets={targets} />
    </ReactFlowProvider>
  );
}
