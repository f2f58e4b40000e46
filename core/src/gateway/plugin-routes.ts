/** The plugin a routed action belongs to: plugins' services are "v<major>.<id>", the core's are not versioned. */
export function pluginOfAction(name: string | undefined): { id: string; major: number } | null {
  const m = name ? /^v(\d+)\.([a-z][a-z0-9-]*)\./.exec(name) : null;
  return m ? { id: m[2], major: Number(m[1]) } : null;
}
