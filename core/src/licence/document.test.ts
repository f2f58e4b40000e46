import { isValidCnpj, isValidCpf, isValidDocument, normaliseDocument } from "./document";

/** Independent reference: appends the two mod-11 check digits to a CPF or CNPJ base. */
function withCheckDigits(base: string, kind: "cpf" | "cnpj"): string {
  let digits = base;
  for (let round = 0; round < 2; round++) {
    const n = digits.length;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      // CPF weights run n+1 … 2; CNPJ weights run 2 … 9 cyclically from the right.
      const weight = kind === "cpf" ? n + 1 - i : ((n - 1 - i) % 8) + 2;
      sum += Number(digits[i]) * weight;
    }
    const check = (sum * 10) % 11;
    digits += String(check === 10 ? 0 : check);
  }
  return digits;
}

/** Deterministic pseudo-random digit strings. */
function* randomBases(count: number, length: number): Generator<string> {
  let seed = 12345;
  for (let k = 0; k < count; k++) {
    let s = "";
    for (let i = 0; i < length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      s += String(seed % 10);
    }
    yield s;
  }
}

describe("normaliseDocument", () => {
  it("keeps digits only", () => {
    expect(normaliseDocument("529.982.247-25")).toBe("52998224725");
    expect(normaliseDocument("11.222.333/0001-81")).toBe("11222333000181");
    expect(normaliseDocument(" 11 222 333 0001 81 ")).toBe("11222333000181");
    expect(normaliseDocument("")).toBe("");
    expect(normaliseDocument("abc")).toBe("");
  });

  it("gives an empty string for non-strings", () => {
    expect(normaliseDocument(undefined)).toBe("");
    expect(normaliseDocument(null)).toBe("");
    expect(normaliseDocument(52998224725)).toBe("");
    expect(normaliseDocument({})).toBe("");
  });
});

describe("CPF", () => {
  it("accepts well-known valid numbers, formatted or not", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true);
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("111.444.777-35")).toBe(true);
    expect(isValidCpf("012.345.678-90")).toBe(true); // leading zero
  });

  it("reference check digits reproduce the well-known numbers", () => {
    expect(withCheckDigits("529982247", "cpf")).toBe("52998224725");
    expect(withCheckDigits("111444777", "cpf")).toBe("11144477735");
  });

  it("agrees with the reference algorithm on many generated numbers", () => {
    for (const base of randomBases(300, 9)) {
      const cpf = withCheckDigits(base, "cpf");
      if (/^(\d)\1+$/.test(cpf)) continue;
      expect(isValidCpf(cpf)).toBe(true);
      const wrongLast = cpf.slice(0, 10) + String((Number(cpf[10]) + 1) % 10);
      expect(isValidCpf(wrongLast)).toBe(false);
      const wrongFirstCheck = cpf.slice(0, 9) + String((Number(cpf[9]) + 1) % 10) + cpf[10];
      expect(isValidCpf(wrongFirstCheck)).toBe(false);
    }
  });

  it("rejects any single-digit change of a valid CPF", () => {
    const valid = "52998224725";
    for (let i = 0; i < valid.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue;
        const changed = valid.slice(0, i) + d + valid.slice(i + 1);
        expect(isValidCpf(changed)).toBe(false);
      }
    }
  });

  it("rejects repeated digits even though their check digits add up", () => {
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11))).toBe(false);
    expect(isValidCpf("111.111.111-11")).toBe(false);
  });

  it("rejects wrong lengths and junk", () => {
    for (const x of ["", "5299822472", "529982247250", "abc", "529.982.247-2", "52998224725 1", null, undefined, 52998224725]) {
      expect(isValidCpf(x)).toBe(false);
    }
    expect(isValidCpf("11222333000181")).toBe(false); // a CNPJ
  });
});

describe("CNPJ", () => {
  it("accepts well-known valid numbers, formatted or not", () => {
    expect(isValidCnpj("11.222.333/0001-81")).toBe(true);
    expect(isValidCnpj("11222333000181")).toBe(true);
  });

  it("reference check digits reproduce the well-known number", () => {
    expect(withCheckDigits("112223330001", "cnpj")).toBe("11222333000181");
  });

  it("agrees with the reference algorithm on many generated numbers", () => {
    for (const base of randomBases(300, 12)) {
      const cnpj = withCheckDigits(base, "cnpj");
      if (/^(\d)\1+$/.test(cnpj)) continue;
      expect(isValidCnpj(cnpj)).toBe(true);
      const wrongLast = cnpj.slice(0, 13) + String((Number(cnpj[13]) + 1) % 10);
      expect(isValidCnpj(wrongLast)).toBe(false);
      const wrongFirstCheck = cnpj.slice(0, 12) + String((Number(cnpj[12]) + 1) % 10) + cnpj[13];
      expect(isValidCnpj(wrongFirstCheck)).toBe(false);
    }
  });

  it("rejects any single-digit change of a valid CNPJ", () => {
    const valid = "11222333000181";
    for (let i = 0; i < valid.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue;
        const changed = valid.slice(0, i) + d + valid.slice(i + 1);
        expect(isValidCnpj(changed)).toBe(false);
      }
    }
  });

  it("rejects repeated digits", () => {
    for (let d = 0; d <= 9; d++) expect(isValidCnpj(String(d).repeat(14))).toBe(false);
    expect(isValidCnpj("00.000.000/0000-00")).toBe(false);
  });

  it("rejects wrong lengths and junk", () => {
    for (const x of ["", "1122233300018", "112223330001811", "11.222.333/0001-8", "xx", null, undefined]) {
      expect(isValidCnpj(x)).toBe(false);
    }
    expect(isValidCnpj("52998224725")).toBe(false); // a CPF
  });
});

describe("isValidDocument", () => {
  it("accepts a valid CPF or CNPJ", () => {
    expect(isValidDocument("529.982.247-25")).toBe(true);
    expect(isValidDocument("11.222.333/0001-81")).toBe(true);
    expect(isValidDocument("11222333000181")).toBe(true);
  });

  it("rejects everything else", () => {
    for (const x of [
      "",
      "529.982.247-26",
      "11.222.333/0001-82",
      "11111111111",
      "11111111111111",
      "123",
      "1234567890123", // 13 digits
      null,
      undefined,
      11222333000181,
    ]) {
      expect(isValidDocument(x)).toBe(false);
    }
  });
});
