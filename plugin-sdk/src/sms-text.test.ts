import { smsIsGsm7, smsParts, smsNumber } from "./sms-text";

describe("SMS text", () => {
  it("takes numbers with the country code, formatted or not, and refuses the rest", () => {
    expect(smsNumber("5511988887777")).toBe("5511988887777");
    expect(smsNumber("+55 (11) 98888-7777")).toBe("5511988887777");
    expect(smsNumber("12345")).toBeNull();
    expect(smsNumber("5511988887777@s.whatsapp.net")).toBeNull();
    expect(smsNumber("1".repeat(16))).toBeNull();
  });

  it("counts the parts (credits) of a text as the networks split it", () => {
    expect(smsParts("Olá! Seu pedido saiu para entrega.")).toBe(1); // á is not GSM-7: UCS-2, 70 per part
    expect(smsParts("a".repeat(160))).toBe(1);
    expect(smsParts("a".repeat(161))).toBe(2);
    expect(smsParts("a".repeat(306))).toBe(2);
    expect(smsParts("a".repeat(307))).toBe(3);
    expect(smsParts("€".repeat(80))).toBe(1); // extension characters take two septets each
    expect(smsParts("€".repeat(81))).toBe(2);
    expect(smsParts("é".repeat(160))).toBe(1); // é is in GSM-7
    expect(smsParts("ã".repeat(70))).toBe(1);
    expect(smsParts("ã".repeat(71))).toBe(2);
    expect(smsParts("😀".repeat(35))).toBe(1); // two UTF-16 units each
    expect(smsParts("😀".repeat(36))).toBe(2);
  });

  it("tells GSM-7 texts from UCS-2 ones", () => {
    expect(smsIsGsm7("Oi, é hoje! [20% off] €")).toBe(true);
    expect(smsIsGsm7("Promoção")).toBe(false); // ã is not in GSM-7
    expect(smsIsGsm7("oi 😀")).toBe(false);
  });
});
