/**
 * What other services may know of a connection: its row as the internal actions answer it,
 * and the actions and events of the connections service.
 */
export interface ConnectionRow {
  id: number;
  tenantId: number;
  name: string;
  type: string;
  status: string;
  isDefault: boolean;
  greeting: string | null;
  farewell: string | null;
  token: string;
  queueId: number | null;
  settings: Record<string, unknown>;
  qrcode: string | null;
  retries: number;
  statusDetail: string | null;
  /** The major of the channel plugin the connection was made with: its traffic goes to "v<major>.<type>". Null: the newest (rows older than migration 0010). */
  pluginMajor: number | null;
  /** Why the platform stopped it (an error code: ERR_PLUGIN_DISABLED, ERR_PLUGIN_NOT_ALLOWED, ERR_LICENSE_TIER_REQUIRED, …); null when it did not. */
  inactiveReason: string | null;
  /** The status it had when stopped: re-enabling reconnects it unless it was disconnected. */
  resumeStatus: string | null;
  /** The admin wants it up: connected again at start and when its plugin comes back (outbox service). */
  keepConnected: boolean;
  createdAt?: Date;
  updatedAt?: Date;
}

/** A connection as the outbox service sees it (connections.byType). */
export interface ConnectionInfo {
  id: number;
  tenantId: number;
  type: string;
  status: string;
  pluginMajor: number | null;
  /** Wanted up, and not stopped by the platform. */
  keepConnected: boolean;
}

/** A connection as a tenant-wide channel task tries it (connections.ranked). */
export interface RankedConnection {
  id: number;
  type: string;
  status: string;
  pluginMajor: number | null;
}

/** A connection's id, name and type (connections.names). */
export interface ConnectionName {
  id: number;
  name: string;
  type: string;
}

/** What a status report answers: `ignored` when the row's status did not take it. */
export interface StatusApplied {
  id: number;
  status: string;
  ignored?: true;
}

/** Actions of the connections service other services call. */
export interface ConnectionsActions {
  "connections.getInternal": { params: { id: number }; result: ConnectionRow | null };
  /** The tenant's default connection, else its oldest. */
  "connections.defaultFor": { params: { tenantId: number }; result: ConnectionRow | null };
  "connections.byToken": { params: { token: string }; result: ConnectionRow | null };
  "connections.connectInternal": { params: { id: number }; result: { id: number; status: string | undefined } };
  "connections.byType": { params: { type: string }; result: ConnectionInfo[] };
  "connections.setStatus": { params: { tenantId: number; connectionId: number; status: string; qrcode?: string; detail?: string }; result: StatusApplied };
  "connections.reconcilePlugins": { params: { tenantId: number; pluginId?: string }; result: { stopped: number[]; resumed: number[] } };
  "connections.names": { params: { tenantId: number; ids: number[] }; result: ConnectionName[] };
  "connections.ranked": { params: { tenantId: number; limit?: number }; result: RankedConnection[] };
  /** Connections of every tenant whose type is one of `types` (a plugin's id and its channel type: plugin-pins.ts). */
  "connections.countByType": { params: { types: string[] }; result: number };
  /** Connections of `types` pinned to a major now use `major` (one version of an installed plugin runs at a time). */
  "connections.repinMajor": { params: { types: string[]; major: number }; result: { moved: number } };
}

export interface ConnectionsEvents {
  "connections.changed": { tenantId: number; connectionId: number; deleted?: boolean };
}
