/** The builder's help: what each node does, how to connect them, the rules (no self link, no loop), layouts and shortcuts. */
import { Drawer, Typography, theme } from "antd";
import { NODE_TYPES } from "../../model";
import { NODE_COLORS, useBuilder } from "./context";
import { NODE_ICONS } from "./nodes";

export function HelpDrawer({ open, onClose, container }: { open: boolean; onClose: () => void; container: () => HTMLElement }) {
  const { token: tk } = theme.useToken();
  const b = useBuilder();
  return (
    <Drawer open={open} onClose={onClose} title={b.tr("helpTitle")} size={460} getContainer={container} rootStyle={{ position: "absolute" }} data-testid="flow-help-drawer">
      <Typography.Paragraph>{b.tr("helpIntro")}</Typography.Paragraph>
      <Typography.Title level={5}>{b.tr("helpNodes")}</Typography.Title>
      {NODE_TYPES.map((t) => (
        <div key={t} style={{ display: "flex", gap: 10, marginBottom: 10 }} data-testid={`flow-help-${t}`}>
          <span style={{ color: NODE_COLORS[t], fontSize: 16 }}>{NODE_ICONS[t]}</span>
          <div>
            <div style={{ fontWeight: 600 }}>{b.tr(`type.${t}`)}</div>
            <div style={{ color: tk.colorTextSecondary }}>{b.tr(`nodeHelp.${t}`)}</div>
          </div>
        </div>
      ))}
      <Typography.Title level={5}>{b.tr("helpConnect")}</Typography.Title>
      <Typography.Paragraph>{b.tr("helpConnectText")}</Typography.Paragraph>
      <Typography.Title level={5}>{b.tr("helpRules")}</Typography.Title>
      <ul style={{ paddingInlineStart: 18 }} data-testid="flow-help-rules">
        <li>{b.tr("helpRuleStart")}</li>
        <li>{b.tr("helpRuleSelf")}</li>
        <li>{b.tr("helpRuleLoop")}</li>
        <li>{b.tr("helpRuleOneEdge")}</li>
        <li>{b.tr("helpRuleFree")}</li>
      </ul>
      <Typography.Title level={5}>{b.tr("helpView")}</Typography.Title>
      <Typography.Paragraph>{b.tr("helpViewText")}</Typography.Paragraph>
      <Typography.Title level={5}>{b.tr("helpRuns")}</Typography.Title>
      <Typography.Paragraph>{b.tr("helpRunsText")}</Typography.Paragraph>
      <Typography.Title level={5}>{b.tr("helpPlaceholders")}</Typography.Title>
      <Typography.Paragraph>{b.tr("helpPlaceholdersText", { name: "{{name}}", protocol: "{{protocol}}", var: "{{var.<name>}}" })}</Typography.Paragraph>
    </Drawer>
  );
}
