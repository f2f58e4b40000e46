import { GlobalOutlined, PartitionOutlined, UserOutlined } from "@ant-design/icons";

export const SCOPE_ICON = { global: <GlobalOutlined />, queue: <PartitionOutlined />, personal: <UserOutlined /> } as const;
export const SCOPE_COLOR = { global: "green", queue: "blue", personal: "default" } as const;
