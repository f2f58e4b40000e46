/** A queue's id and name (queues.names). */
export interface QueueName {
  id: number;
  name: string;
}

/** Actions of the queues service other services call. */
export interface QueuesActions {
  /** The ids among `ids` that are queues of the tenant. */
  "queues.existing": { params: { tenantId: number; ids: number[] }; result: number[] };
  "queues.createInternal": { params: { tenantId: number; name: string; active?: boolean }; result: { id: number } };
  "queues.names": { params: { tenantId: number; ids: number[] }; result: QueueName[] };
  /** The tenant's queues, by name. */
  "queues.listInternal": { params: { tenantId: number }; result: QueueName[] };
}

export interface QueuesEvents {
  "queues.changed": { tenantId: number; queueId: number };
}
