/**
 * Entry of `plugin-sdk dev`: the plugin's register() (aliased as "@plugin-sdk-dev/register"
 * by the dev command) called with the stub runtime, and the dev page rendered.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import register from "@plugin-sdk-dev/register";
import { DevShell, type PluginInfo } from "./DevShell";
import { createDevRuntime } from "./runtime";

declare const __PLUGIN_DEV__: PluginInfo;

const plugin = __PLUGIN_DEV__;
const dev = createDevRuntime({ id: plugin.id });
(window as unknown as { __pluginSdkDev: unknown }).__pluginSdkDev = dev;

const root = createRoot(document.getElementById("root")!);
root.render(
  <StrictMode>
    <DevShell dev={dev} plugin={plugin} />
  </StrictMode>,
);

Promise.resolve(register(dev.runtime)).catch((err: unknown) => {
  console.error("[plugin-sdk dev] register() failed:", err);
  dev.runtime.notify.error(err);
});
