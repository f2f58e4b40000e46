import type { ComponentType, CSSProperties } from "react";
import "./kit.css";
import {
  ApiOutlined,
  CommentOutlined,
  FacebookOutlined,
  GlobalOutlined,
  InstagramOutlined,
  MailOutlined,
  MessageOutlined,
  MobileOutlined,
  PhoneOutlined,
  SendOutlined,
  WhatsAppOutlined,
} from "@ant-design/icons";

/** What a plugin's manifest says about its looks (platform.icon, platform.color), as GET /plugins/enabled and GET /plugins carry it. */
export interface PluginLooks {
  icon?: string;
  color?: string;
}

/** The icon names of the manifest (plugin-sdk PLUGIN_ICONS) the shell draws itself. */
const NAMED: Record<string, ComponentType> = {
  whatsapp: WhatsAppOutlined,
  telegram: SendOutlined,
  instagram: InstagramOutlined,
  facebook: FacebookOutlined,
  mail: MailOutlined,
  sms: MobileOutlined,
  chat: CommentOutlined,
  web: GlobalOutlined,
  phone: PhoneOutlined,
  api: ApiOutlined,
};

/** A plugin that declares no colour (or none is known: its plugin is gone) is drawn in grey. */
export const NEUTRAL_COLOR = "#4b5563";

/** The glyph of an icon: a known name, the plugin's own image, or a neutral one (`fallback`, default a speech bubble). */
export function Glyph({ icon, size, fallback }: { icon?: string; size?: number; fallback?: ComponentType }) {
  if (icon && !NAMED[icon] && /^(https:|data:image\/)/i.test(icon)) {
    // The size in CSS: a width attribute of "1em" is read as 1 pixel.
    const side = size ? `${size}px` : "1em";
    return <img src={icon} alt="" style={{ width: side, height: side, objectFit: "contain", display: "block" }} />;
  }
  const C = (icon && NAMED[icon]) || fallback || MessageOutlined;
  return <C />;
}

/**
 * A channel's icon as its plugin's manifest declares it (never guessed from the type's name).
 * `badge`: white glyph on the plugin's colour (settings lists); `plain`: the glyph in its colour
 * (the corner of an avatar, a type card).
 */
export function ChannelIcon({ looks, variant = "plain", className, style }: { looks?: PluginLooks; variant?: "badge" | "plain"; className?: string; style?: CSSProperties }) {
  const color = looks?.color ?? NEUTRAL_COLOR;
  if (variant === "badge") {
    return (
      <span className={`oa-type-icon${className ? ` ${className}` : ""}`} style={{ background: color, ...style }} aria-hidden data-icon={looks?.icon ?? "none"}>
        <Glyph icon={looks?.icon} />
      </span>
    );
  }
  return (
    <span className={className} style={{ color, display: "inline-grid", placeItems: "center", ...style }} aria-hidden data-icon={looks?.icon ?? "none"}>
      <Glyph icon={looks?.icon} />
    </span>
  );
}
