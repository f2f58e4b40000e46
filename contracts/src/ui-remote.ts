/**
 * A plugin's UI remote as the shell and the plugin's build both name it: the Module Federation
 * container of plugin `channel-acme` is `plugin_channel_acme` (its id as an identifier). The
 * build (the SDK's rsbuild-remote) gives the container this name, and the shell loads
 * `<name>/register` by it, so the two must never differ.
 */
export function containerName(id: string): string {
  return `plugin_${id.replace(/[^A-Za-z0-9]/g, "_")}`;
}
