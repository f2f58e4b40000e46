/** What other services may know of a tenant: its row as tenants.getInternal answers it. */
export interface TenantRow {
  id: number;
  name: string;
  status: "active" | "inactive" | "deleted";
  document: string | null;
  resellerId: number | null;
  maxUsers: number | null;
  maxConnections: number | null;
  licenseToken: string | null;
  timezone: string;
  termsAccepted: boolean;
  termsAcceptedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
