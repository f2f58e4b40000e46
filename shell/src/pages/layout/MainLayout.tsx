import type { ReactNode } from "react";
import { AntdProvider } from "../../app/AntdProvider";
// Work in progress: replaced by the layout with the menu.
export default function MainLayout({ children }: { children: ReactNode }) {
  return <AntdProvider>{children}</AntdProvider>;
}
