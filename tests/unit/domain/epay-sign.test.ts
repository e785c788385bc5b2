import { describe, expect, it } from "vitest";
import { epaySignature, epaySigningString, signEpayParams, verifyEpaySignature } from "~/domain/payments/epay-sign";

// Worked examples of the Epay signature (merchant key abc123).
const KEY = "abc123";
const purchase = {
  pid: "1001",
  type: "alipay",
  out_trade_no: "T20250101A",
  notify_url: "https://gw.example/api/user/epay/notify",
  return_url: "https://gw.example/log",
  name: "TUC10",
  money: "7.30",
  device: "pc",
};
const notify = {
  pid: "1001",
  trade_no: "2025010112000011",
  out_trade_no: "T20250101A",
  type: "alipay",
  name: "TUC10",
  money: "7.30",
  trade_status: "TRADE_SUCCESS",
};

describe("Epay signature", () => {
  it("signs the purchase form as the documented example: sorted raw k=v, key appended, lowercase md5", () => {
    expect(epaySigningString(purchase)).toBe(
      "device=pc&money=7.30&name=TUC10&notify_url=https://gw.example/api/user/epay/notify&out_trade_no=T20250101A&pid=1001&return_url=https://gw.example/log&type=alipay",
    );
    expect(epaySignature(purchase, KEY)).toBe("812af03ee588c0bfdfb051b6d9f5d9c0");
    expect(signEpayParams(purchase, KEY)).toMatchObject({ sign: "812af03ee588c0bfdfb051b6d9f5d9c0", sign_type: "MD5" });
  });

  it("verifies the documented notify and leaves sign, sign_type and empty values out of the string", () => {
    const signed = { ...notify, param: "", sign: "3d52cc1e6b65471d7d5f49139041a592", sign_type: "MD5" };
    expect(epaySigningString(signed)).toBe(
      "money=7.30&name=TUC10&out_trade_no=T20250101A&pid=1001&trade_no=2025010112000011&trade_status=TRADE_SUCCESS&type=alipay",
    );
    expect(verifyEpaySignature(signed, KEY)).toBe(true);
  });

  it("refuses a notify whose amount, key or signature was changed, or that names another sign type", () => {
    const signed = signEpayParams(notify, KEY);
    expect(verifyEpaySignature(signed, KEY)).toBe(true);
    expect(verifyEpaySignature({ ...signed, money: "0.01" }, KEY)).toBe(false);
    expect(verifyEpaySignature(signed, "other-key")).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign: "0".repeat(32) }, KEY)).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign: "short" }, KEY)).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign_type: "RSA" }, KEY)).toBe(false);
    const { sign: _sign, ...unsigned } = signed;
    expect(verifyEpaySignature(unsigned, KEY)).toBe(false);
  });

  it("signs extra parameters the gateway adds, as providers do", () => {
    const withParam = signEpayParams({ ...notify, param: "x" }, KEY);
    expect(verifyEpaySignature(withParam, KEY)).toBe(true);
    expect(verifyEpaySignature({ ...withParam, param: "y" }, KEY)).toBe(false);
  });
});
