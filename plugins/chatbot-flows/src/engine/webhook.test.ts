import { greetingAt, webhookPayload } from "./webhook";

describe("webhook payload", () => {
  const values = { name: "Ana Souza", greeting: "Bom dia", protocol: "2026-1", email: "ana@x.com", phoneNumber: "5511987654321", kanban: ["Lead"], user: null, userEmail: null };

  it("sends the chosen fields only, with the ticket and flow", () => {
    expect(webhookPayload(["name", "phoneNumber", "kanban"], values, { ticketId: 7, flowId: 3 })).toEqual({ ticketId: 7, flowId: 3, name: "Ana Souza", phoneNumber: "5511987654321", kanban: ["Lead"] });
    expect(webhookPayload([], values, { ticketId: 7, flowId: 3 })).toEqual({ ticketId: 7, flowId: 3 });
  });

  it("greets by the hour in the tenant's zone", () => {
    const utc = (h: number) => Date.UTC(2026, 10, 30, h, 30);
    expect(greetingAt(utc(12), "America/Sao_Paulo")).toBe("Bom dia"); // 09:30 there
    expect(greetingAt(utc(18), "America/Sao_Paulo")).toBe("Boa tarde"); // 15:30
    expect(greetingAt(utc(23), "America/Sao_Paulo")).toBe("Boa noite"); // 20:30
    expect(greetingAt(utc(6), "America/Sao_Paulo")).toBe("Boa noite"); // 03:30
    expect(greetingAt(utc(9), "Not/AZone")).toBe("Bom dia"); // UTC when the zone is unknown
  });
});
