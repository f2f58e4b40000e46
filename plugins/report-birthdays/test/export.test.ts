/**
 * The birthdays list exported as Excel and PDF on a real core (MariaDB, Redis, a test clock on
 * Wednesday 2026-06-10 08:00 in São Paulo): the page's columns and rows, streamed (chunked, no
 * length known in advance), read back with exceljs and from the PDF's text, in the reader's
 * language; only the tenant's own contacts; supervisors and admins only; a bad format or period
 * refused.
 */
import ExcelJS from "exceljs";
import { pdfText } from "@openatende/report-kit/src/pdf-text";
import { API, birthdaysCore, createSuper, expectError, ok, shop, TestClock, type Auth, type Shop, type TestCore } from "./kit";

jest.setTimeout(180_000);

const T0 = Date.UTC(2026, 5, 10, 11, 0); // 2026-06-10 08:00 in São Paulo
let t: TestCore;
let a: Shop;
let b: Shop;

async function download(path: string, who: Auth, locale = "pt-BR") {
  const res = await fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId, "x-locale": locale } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  t = await birthdaysCore(new TestClock(T0));
  const sup = await createSuper(t);
  [a, b] = [await shop(t, sup), await shop(t, sup)];
  await a.contact("Eva Castro", "1970-06-01");
  await a.contact("Ana Lima", "1990-06-10");
  await a.contact("Davi Souza", "1992-06-11");
  await a.contact("Fábio Nunes", "1988-07-04");
  await b.contact("Gil Prado", "1990-06-10");
});
afterAll(async () => {
  await t?.stop();
});

describe("birthdays export (MariaDB, test clock)", () => {
  it("exports the month as Excel, streamed, with the page's columns: name, number, birthday, age turned and status", async () => {
    // One birthday message pending: its row says so.
    const june = await ok(t.api.get(`${API}/contacts?period=month&month=6`, a.admin));
    const davi = june.rows.find((r: { name: string }) => r.name === "Davi Souza");
    await ok(t.api.post(`${API}/schedule`, { period: "month", month: 6, contactIds: [davi.id], connectionId: a.conn, body: "Parabéns {{name}}" }, a.admin), 201);

    const x = await download(`${API}/export?period=month&month=6&format=xlsx`, a.supervisor);
    expect(x.status).toBe(200);
    expect(x.headers.get("content-type")).toContain("spreadsheetml");
    expect(x.headers.get("transfer-encoding")).toBe("chunked");
    expect(x.headers.get("content-length")).toBeNull();
    expect(x.headers.get("content-disposition")).toContain("filename*=UTF-8''Aniversariantes%20do%20m%C3%AAs.xlsx");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, "Aniversariantes do mês"]);
    expect(ws.getRow(2).values).toEqual([undefined, "Mês: 01/06/2026 – 30/06/2026"]);
    expect(ws.getRow(3).values).toEqual([undefined, "Nome", "Número", "Aniversário", "Faz (anos)", "Situação"]);
    const rows = [4, 5, 6, 7].map((i) => (ws.getRow(i).values as unknown[]).slice(1));
    expect(rows.map((r) => [r[0], r[2], r[3], r[4]])).toEqual([
      ["Eva Castro", "01/06", 56, "Já passou"],
      ["Ana Lima", "10/06", 36, "Hoje"],
      ["Davi Souza", "11/06", 34, "Agendado"],
      [undefined, undefined, undefined, undefined],
    ]);
    expect(rows[0]![1]).toMatch(/^55119\d{8}$/);
  });

  it("exports today as a PDF in the reader's language, the tenant's own contacts only", async () => {
    const p = await download(`${API}/export?period=today&format=pdf`, a.admin, "ru");
    expect(p.status).toBe(200);
    expect(p.headers.get("content-type")).toBe("application/pdf");
    const text = (await pdfText(p.body)).pages.join("\n");
    expect(text).toContain("Именинники месяца");
    expect(text).toContain("Сегодня: 10/06/2026");
    expect(text).toContain("Ana Lima");
    expect(text).not.toContain("Eva Castro");
    expect(text).not.toContain("Gil Prado");

    // Another tenant's export lists its own contact and none of A's.
    const theirs = await download(`${API}/export?period=today&format=pdf`, b.admin);
    const their = (await pdfText(theirs.body)).pages.join("\n");
    expect(their).toContain("Gil Prado");
    expect(their).not.toContain("Ana Lima");
  });

  it("refuses agents, a bad format and a bad period", async () => {
    expectError(await t.api.get(`${API}/export?format=xlsx`, a.agent), 403, "ERR_NO_PERMISSION");
    expectError(await t.api.get(`${API}/export?format=csv`, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.get(`${API}/export?format=pdf&period=year`, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.get(`${API}/export?format=pdf&period=month&month=13`, a.admin), 400, "ERR_VALIDATION");
  });
});
