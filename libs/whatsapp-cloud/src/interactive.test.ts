/** Interactive messages checked against WhatsApp's limits before anything is sent; Meta's errors mapped to the catalogue. */
import { sendError, failureReason } from "./failures";
import { GraphError } from "./graph";
import { interactivePayload, type InteractiveSpec } from "./interactive";
import { mediaTypeFor } from "./outbound";

const list: InteractiveSpec = { type: "list", body: "Escolha", button: "Ver opções", sections: [{ title: "Financeiro", rows: [{ id: "a", title: "Boleto", description: "Segunda via" }] }] };

describe("WABA interactive messages and failures", () => {
  it("builds Meta's button and list objects", () => {
    expect(interactivePayload({ type: "button", body: "Oi", header: "Loja", footer: "rodapé", buttons: [{ id: "1", title: "Sim" }] })).toEqual({
      type: "button",
      header: { type: "text", text: "Loja" },
      body: { text: "Oi" },
      footer: { text: "rodapé" },
      action: { buttons: [{ type: "reply", reply: { id: "1", title: "Sim" } }] },
    });
    expect(interactivePayload(list)).toEqual({ type: "list", body: { text: "Escolha" }, action: { button: "Ver opções", sections: [{ title: "Financeiro", rows: [{ id: "a", title: "Boleto", description: "Segunda via" }] }] } });
  });

  it("refuses what WhatsApp would refuse, naming the field", () => {
    const bad = (spec: InteractiveSpec, field: string) => expect(() => interactivePayload(spec)).toThrow(expect.objectContaining({ type: "ERR_WABA_INTERACTIVE_INVALID", data: expect.objectContaining({ field }) }));
    const b = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `B${i}` }));
    bad({ type: "button", body: "x", buttons: b(4) }, "buttons");
    bad({ type: "button", body: "x", buttons: [] }, "buttons");
    bad({ type: "button", body: "x", buttons: [{ id: "1", title: "x".repeat(21) }] }, "buttons[0].title");
    bad({ type: "button", body: "x", buttons: [{ id: "1", title: "a" }, { id: "1", title: "b" }] }, "buttons[1].id");
    bad({ type: "button", body: "", buttons: b(1) }, "body");
    bad({ ...list, button: undefined }, "button");
    bad({ ...list, sections: [{ rows: Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: "t" })) }] }, "sections");
    bad({ ...list, sections: [{ rows: [{ id: "r", title: "t", description: "d".repeat(73) }] }] }, "sections[0].rows[0].description");
    bad({ ...list, type: "carousel" as never }, "type");
  });

  it("maps Meta's codes to the catalogue's, and a failed status to Meta's code and title", () => {
    const e = (http: number, code: number) => sendError(new GraphError("x", http, code, "Title"), "ERR_WABA");
    expect(e(400, 131047)).toMatchObject({ type: "ERR_WABA_TEMPLATE_REQUIRED", data: { code: 131047 } });
    expect(e(400, 130429)).toMatchObject({ type: "ERR_WABA_RATE_LIMITED" });
    expect(e(429, 0)).toMatchObject({ type: "ERR_WABA_RATE_LIMITED" });
    expect(e(400, 131026)).toMatchObject({ type: "ERR_WABA_RECIPIENT_UNAVAILABLE" });
    expect(e(400, 131053)).toMatchObject({ type: "ERR_WABA_MEDIA_FAILED" });
    expect(e(0, 0)).toMatchObject({ type: "ERR_WABA_UNREACHABLE" });
    expect(e(400, 131009)).toMatchObject({ type: "ERR_WABA_SEND_REFUSED", data: { code: 131009, title: "Title" } });
    expect(failureReason([{ code: 131047, title: "Re-engagement message" }])).toBe("ERR_WABA_TEMPLATE_REQUIRED");
    expect(failureReason([{ code: 131026, title: "Message undeliverable" }])).toBe("131026 Message undeliverable");
    expect(failureReason(undefined)).toBe("failed");
    expect(mediaTypeFor("image/webp")).toEqual({ type: "sticker", caption: false });
    expect(mediaTypeFor("audio/ogg; codecs=opus")).toEqual({ type: "audio", caption: false });
    expect(mediaTypeFor("application/zip")).toEqual({ type: "document", caption: true });
  });
});
