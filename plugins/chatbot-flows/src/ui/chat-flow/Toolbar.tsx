/** The builder's top bar: back, the flow's name and state, layouts, full screen, runs, settings, help, download and save. */
import { Badge, Button, Dropdown, Space, Switch, Tag, Tooltip, Typography, theme } from "antd";
import {
  ApartmentOutlined,
  ArrowLeftOutlined,
  DownloadOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  HistoryOutlined,
  QuestionCircleOutlined,
  SaveOutlined,
  SettingOutlined,
  WarningOutlined,
} from "@ant-design/icons";
import { useBuilder } from "./context";
import { LAYOUTS, type LayoutName } from "./layout";

export interface ToolbarProps {
  name: string;
  active: boolean;
  dirty: boolean;
  saving: boolean;
  problems: string[];
  fullscreen: boolean;
  runsOpen: boolean;
  onBack(): void;
  onActive(v: boolean): void;
  onLayout(l: LayoutName): void;
  onFullscreen(): void;
  onRuns(): void;
  onSettings(): void;
  onHelp(): void;
  onDownload(): void;
  onSave(): void;
}

export function Toolbar(p: ToolbarProps) {
  const { token: tk } = theme.useToken();
  const b = useBuilder();
  return (
    <div style={{ display: "flex", alignItems: "center", gap: 8, flexWrap: "wrap", padding: "8px 12px", borderBottom: `1px solid ${tk.colorBorderSecondary}`, background: tk.colorBgContainer }}>
      <Tooltip title={b.tr("back")}>
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={p.onBack} aria-label={b.tr("back")} data-testid="flow-back" />
      </Tooltip>
      <Typography.Text strong style={{ fontSize: 15, maxWidth: 260 }} ellipsis data-testid="flow-title">
        {p.name || b.tr("untitled")}
      </Typography.Text>
      <Tooltip title={b.tr("activeHint")}>
        <Space size={4}>
          <Switch size="small" checked={p.active} onChange={p.onActive} data-testid="flow-active" />
          <span style={{ fontSize: 12 }}>{b.tr(p.active ? "activeOn" : "activeOff")}</span>
        </Space>
      </Tooltip>
      {p.dirty ? (
        <Tag color="orange" data-testid="flow-dirty">
          {b.tr("unsaved")}
        </Tag>
      ) : null}
      {p.problems.length ? (
        <Tooltip title={<ul style={{ margin: 0, paddingInlineStart: 16 }}>{p.problems.slice(0, 8).map((x, i) => <li key={i}>{x}</li>)}</ul>}>
          <Tag color="red" icon={<WarningOutlined />} data-testid="flow-problems">
            {b.tr("problems", { count: p.problems.length })}
          </Tag>
        </Tooltip>
      ) : null}
      <Space wrap size={4} style={{ marginInlineStart: "auto" }}>
        <Dropdown
          trigger={["click"]}
          menu={{
            items: LAYOUTS.map((l) => ({ key: l, label: <span data-testid={`flow-layout-${l}`}>{b.tr(`layout.${l}`)}</span> })),
            onClick: ({ key }) => p.onLayout(key as LayoutName),
          }}
        >
          <Button icon={<ApartmentOutlined />} data-testid="flow-layout">
            {b.tr("autoLayout")}
          </Button>
        </Dropdown>
        <Tooltip title={b.tr(p.fullscreen ? "exitFullscreen" : "fullscreen")}>
          <Button icon={p.fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={p.onFullscreen} aria-label={b.tr(p.fullscreen ? "exitFullscreen" : "fullscreen")} data-testid="flow-fullscreen" />
        </Tooltip>
        <Button icon={<HistoryOutlined />} type={p.runsOpen ? "primary" : "default"} ghost={p.runsOpen} onClick={p.onRuns} data-testid="flow-runs">
          {b.tr("runs")}
        </Button>
        <Button icon={<SettingOutlined />} onClick={p.onSettings} data-testid="flow-settings">
          {b.tr("settings")}
        </Button>
        <Tooltip title={b.tr("help")}>
          <Button icon={<QuestionCircleOutlined />} onClick={p.onHelp} aria-label={b.tr("help")} data-testid="flow-help" />
        </Tooltip>
        <Tooltip title={b.tr("download")}>
          <Button icon={<DownloadOutlined />} onClick={p.onDownload} aria-label={b.tr("download")} data-testid="flow-download" />
        </Tooltip>
        <Badge dot={p.dirty}>
          <Button type="primary" icon={<SaveOutlined />} loading={p.saving} onClick={p.onSave} data-testid="flow-save">
            {b.tr("save")}
          </Button>
        </Badge>
      </Space>
    </div>
  );
}
