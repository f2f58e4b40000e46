import { createContext, useContext } from "react";
import type { RootStore } from "./root";

export const RootContext = createContext<RootStore | null>(null);

/** The page's RootStore (stores, api client, i18n, plugins, socket). */
export function useRoot(): RootStore {
  const r = useContext(RootContext);
  if (!r) throw new Error("useRoot outside <RootContext.Provider>");
  return r;
}
