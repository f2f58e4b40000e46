/** Parsing received mail: sanitised HTML, the new text of a reply, provider ids, threading headers, reports. */
import { baseSubject, messageIdOfProviderId, parseEmail, providerIdOf, stripQuoted, MAX_PROVIDER_ID } from "../src/parse";
import { sanitizeEmailHtml } from "../src/sanitize";
import { compose } from "./support/mail";

describe("sanitizeEmailHtml", () => {
  it.each([
    ['<p>a<script>alert(1)</script>b</p>', "<p>ab</p>"],
    ['<img src="x" onerror="alert(1)">', ""],
    ['<img src="https://tracker.test/p.gif" alt="p">', ""],
    ['<img src="cid:logo@x" onload="alert(1)">', '<img src="cid:logo@x" />'],
    ['<a href="javascript:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<a href="https://ok.test/?a=1&amp;b=2" onclick="x()">ok</a>', '<a href="https://ok.test/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">ok</a>'],
    ['<div style="background:url(javascript:alert(1))">t</div>', "<div>t</div>"],
    ["<style>p{color:red}</style><p>t</p>", "<p>t</p>"],
    ['<iframe src="https://evil.test"></iframe><object data="x"></object><form action="/x"><input name="p"></form>t', "t"],
    ["<svg><script>alert(1)</script></svg>t", "t"],
    ['<table border="1"><tr><td colspan="2">c</td></tr></table>', '<table border="1"><tr><td colspan="2">c</td></tr></table>'],
  ])("%s → %s", (input, expected) => {
    expect(sanitizeEmailHtml(input)).toBe(expected);
  });
});

describe("stripQuoted", () => {
  it("cuts the quoted history and the attribution line of a reply", () => {
    expect(stripQuoted("Obrigado!\n\nEm seg., 1 de jan. de 2024 às 10:00, Suporte <s@x.test> escreveu:\n> antes\n> mais\n")).toBe("Obrigado!");
    expect(stripQuoted("Thanks\r\n\r\nOn Mon, Jan 1, 2024 at 10:00 AM Support <s@x.test>\r\nwrote:\r\n> old\r\n")).toBe("Thanks");
    expect(stripQuoted("Ok.\n\n-----Original Message-----\nFrom: x\nSubject: y\n\nold")).toBe("Ok.");
  });
  it("keeps a message that is only a quote, and quotes in the middle", () => {
    expect(stripQuoted("> just a quote")).toBe("> just a quote");
    expect(stripQuoted("Você disse:\n> isto\nE eu respondo aquilo.")).toBe("Você disse:\n> isto\nE eu respondo aquilo.");
  });
});

describe("provider ids and subjects", () => {
  it("keeps Message-IDs up to the core's 191 characters, hashes longer ones, and finds the Message-ID of an attachment's id", () => {
    expect(providerIdOf("<a@b>")).toBe("<a@b>");
    expect(providerIdOf("<a@b>", 2)).toBe("<a@b>#2");
    const long = `<${"x".repeat(200)}@b>`;
    expect(providerIdOf(long)).toMatch(/^<[0-9a-f]{64}@hashed\.message-id>$/);
    expect(providerIdOf(long).length).toBeLessThanOrEqual(MAX_PROVIDER_ID);
    expect(providerIdOf(long)).toBe(providerIdOf(long));
    expect(messageIdOfProviderId("<a@b>#3")).toBe("<a@b>");
    expect(messageIdOfProviderId("wc-123")).toBeNull();
  });
  it("takes reply and forward prefixes off a subject, in several languages", () => {
    expect(baseSubject("Re: RES: Fwd: Pedido 123")).toBe("Pedido 123");
    expect(baseSubject("RE[2]: Enc: Troca")).toBe("Troca");
    expect(baseSubject("Отв: Заказ")).toBe("Заказ");
    expect(baseSubject("Resumo do mês")).toBe("Resumo do mês");
  });
});

describe("parseEmail", () => {
  it("reads sender, threading headers and text; the thread key is the first of References", async () => {
    const m = await parseEmail(
      await compose({ from: '"Maria" <MARIA@Example.TEST>', to: "s@x.test", subject: "Re: Oi", text: "Olá\n", messageId: "<m3@x>", inReplyTo: "<m2@x>", references: ["<m1@x>", "<m2@x>"] }),
    );
    expect(m).toMatchObject({ providerId: "<m3@x>", messageId: "<m3@x>", from: { address: "maria@example.test", name: "Maria" }, subject: "Re: Oi", text: "Olá", inReplyTo: "<m2@x>", references: ["<m1@x>", "<m2@x>"], threadKey: "<m1@x>", report: null, html: null });
  });

  it("gives a mail without Message-ID an id made from its content, the same every time", async () => {
    const raw = Buffer.from("From: a@b.test\r\nSubject: x\r\n\r\nhello\r\n");
    const a = await parseEmail(raw);
    expect(a.providerId).toMatch(/^<[0-9a-f]{64}@no-message-id>$/);
    expect((await parseEmail(raw)).providerId).toBe(a.providerId);
  });

  it("reads a read receipt (MDN) about one of our messages", async () => {
    const raw = [
      "From: c@customer.test",
      "Subject: Read: Re: x",
      "Message-ID: <mdn1@customer.test>",
      'Content-Type: multipart/report; report-type=disposition-notification; boundary="B"',
      "",
      "--B",
      "Content-Type: text/plain",
      "",
      "Your message was displayed.",
      "--B",
      "Content-Type: message/disposition-notification",
      "",
      "Final-Recipient: rfc822; c@customer.test",
      "Original-Message-ID: <ours-1@support.test>",
      "Disposition: manual-action/MDN-sent-manually; displayed",
      "--B--",
      "",
    ].join("\r\n");
    expect((await parseEmail(Buffer.from(raw))).report).toEqual({ kind: "mdn", originalMessageId: "<ours-1@support.test>", status: "read" });
  });

  it("does not take an ordinary multipart mail for a report", async () => {
    const m = await parseEmail(await compose({ from: "a@b.test", subject: "s", text: "Action: failed\nStatus: 5.1.1", attachments: [{ filename: "a.txt", content: "x" }] }));
    expect(m.report).toBeNull();
    expect(m.attachments.map((a) => a.fileName)).toEqual(["a.txt"]);
  });
});
