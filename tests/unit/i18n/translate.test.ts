import { describe, expect, it } from "vitest";
import { pageText, t, translateText } from "~/i18n/translate";
import { messages } from "~/messages";

describe("translation with the Chinese text as key", () => {
  it("renders Chinese byte for byte as the code wrote it", () => {
    expect(t("zh", messages.loginFailed)).toBe(messages.loginFailed);
    expect(t("zh", "{{site}} 邮箱验证", { site: "A&B" })).toBe("A&B 邮箱验证");
    expect(
      t(
        "zh",
        "您好，您正在进行 {{site}} 邮箱验证。\n您的验证码为：{{code}}\n验证码 {{minutes}} 分钟内有效，如果不是本人操作，请忽略本邮件。",
        { site: "S", code: "123456", minutes: 10 },
      ),
    ).toBe(
      "您好，您正在进行 S 邮箱验证。\n您的验证码为：123456\n验证码 10 分钟内有效，如果不是本人操作，请忽略本邮件。",
    );
  });

  it("renders English with the values", () => {
    expect(t("en", "{{site}} 邮箱验证", { site: "Switchyard" })).toBe("Switchyard email verification");
    expect(t("en", messages.loginFailed)).toBe("Wrong username or password, or the user is banned");
  });

  it("reads a finished Chinese message back into English, values and nested messages included", () => {
    expect(translateText("en", "发送过于频繁，请 12 秒后再试")).toBe("Sent too often, please try again in 12 seconds");
    expect(translateText("en", "无效的参数：name: 请输入名称")).toBe("Invalid parameter: name: Please enter a name");
    expect(translateText("en", "渠道「我的渠道」（#3）已被自动禁用，原因：所有密钥均已禁用")).toBe(
      "Channel “我的渠道” (#3) was disabled automatically, reason: Every key is disabled",
    );
  });

  it("reads the common log lines in English", () => {
    expect(translateText("en", "模型倍率 2.5，补全倍率 4，分组倍率 1，缓存倍率 0.1")).toBe(
      "Model ratio 2.5, completion ratio 4, group ratio 1, cache ratio 0.1",
    );
    expect(translateText("en", "通过兑换码充值 ＄10.000000 额度，兑换码ID 7")).toBe(
      "Topped up $10.000000 quota with a redemption code, code ID 7",
    );
    expect(translateText("en", "管理员将用户额度从 100 修改为 200")).toBe(
      "An administrator changed the user's quota from 100 to 200",
    );
    expect(translateText("en", "新用户注册赠送 500000 点额度")).toBe("New-user gift: 500000 quota points");
  });

  it("reads the relay's adapter, stream and task errors in English, values included", () => {
    expect(translateText("en", "渠道 #12 未设置 Base URL")).toBe("Channel #12 has no Base URL set");
    expect(
      translateText(
        "en",
        "代理地址不能是链路本地或云元数据地址（169.254.0.0/16、fe80::/10、fd00:ec2::254、100.100.100.200）：169.254.169.254",
      ),
    ).toBe(
      "The proxy address cannot be a link-local or cloud-metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200): 169.254.169.254",
    );
    expect(translateText("en", "Vertex AI 部署地区无效：us_central")).toBe(
      "Invalid Vertex AI deployment region: us_central",
    );
    expect(translateText("en", "Cohere 渠道不支持此接口（/v1/images/generations）")).toBe(
      "Cohere channels do not support this endpoint (/v1/images/generations)",
    );
    expect(translateText("en", "上游流式响应超时（300 秒无数据）")).toBe(
      "The upstream stream timed out (no data for 300 s)",
    );
    expect(translateText("en", "上游任务超时（超过2小时）")).toBe("The upstream task timed out (over 2 h)");
    expect(translateText("en", "上游任务超时（超过90分钟）")).toBe("The upstream task timed out (over 90 min)");
  });

  it("leaves Chinese readers, user data and unknown text as they are", () => {
    expect(translateText("zh", messages.loginFailed)).toBe(messages.loginFailed);
    expect(translateText("en", "目录里没有的一句中文")).toBe("目录里没有的一句中文");
    expect(translateText("en", "upstream said no")).toBe("upstream said no");
  });

  it("renders a page's text: Chinese as written, English with its values; a column names one thing where the menu names the list", () => {
    expect(pageText("zh", "共 {{total}} 条", { total: 3 })).toBe("共 3 条");
    expect(pageText("en", "共 {{total}} 条", { total: 3 })).toBe("3 in all");
    expect(pageText("en", "令牌")).toBe("Tokens");
    expect(pageText("en", "令牌", { context: "single" })).toBe("Token");
    expect(pageText("zh", "令牌", { context: "single" })).toBe("令牌");
  });
});
