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

/** Actions of the tenants service other services call. */
export interface TenantsActions {
  "tenants.getInternal": { params: { id: number }; result: TenantRow | null };
  "tenants.setLicenseToken": { params: { id: number; token: string | null }; result: boolean };
  "tenants.createInternal": { params: { name: string; document?: string; timezone?: string }; result: TenantRow };
  "tenants.count": { params: Record<string, never>; result: number };
}

export interface TenantsEvents {
  "tenants.changed": { tenantId: number };
}
