/**
 * English for the log lines the server writes (kept in Chinese in the rows, which existing
 * clients read; translated when an English reader lists them).
 */
export const logMessages: Record<string, string> = {
  // Consumption: the pricing a call was billed at, with what a call added to it.
  "模型倍率 {{model}}，补全倍率 {{completion}}，分组倍率 {{group}}":
    "Model ratio {{model}}, completion ratio {{completion}}, group ratio {{group}}",
  "模型价格 {{price}}，分组倍率 {{group}}": "Model price {{price}}, group ratio {{group}}",
  "，缓存倍率 {{ratio}}": ", cache ratio {{ratio}}",
  "，缓存创建倍率 {{ratio}}": ", cache creation ratio {{ratio}}",
  "{{line}}，缓存倍率 {{ratio}}": "{{line}}, cache ratio {{ratio}}",
  "{{line}}，缓存创建倍率 {{ratio}}": "{{line}}, cache creation ratio {{ratio}}",
  "{{line}}，图片倍率 {{ratio}}": "{{line}}, image ratio {{ratio}}",
  "模型固定价格 {{price}}，分组倍率 {{group}}，操作 {{action}}":
    "Fixed model price {{price}}, group ratio {{group}}, action {{action}}",
  模型测试: "Model test",
  "模型测试失败：{{reason}}": "Model test failed: {{reason}}",
  // Quota amounts as the rows spell them.
  "＄{{amount}} 额度": "${{amount}} quota",
  "{{amount}} 点额度": "{{amount}} quota points",
  // Top-up.
  "使用在线充值成功，充值金额: {{quota}}，支付金额：{{paid}}":
    "Online top-up succeeded, amount: {{quota}}, paid: {{paid}}",
  "通过兑换码充值 {{quota}}，兑换码ID {{id}}": "Topped up {{quota}} with a redemption code, code ID {{id}}",
  // System.
  "新用户注册赠送 {{quota}}": "New-user gift: {{quota}}",
  "使用邀请码赠送 {{quota}}": "Invitation-code gift: {{quota}}",
  "邀请用户赠送 {{quota}}": "Gift for inviting a user: {{quota}}",
  "邀请额度划转到余额 {{quota}}": "Invitation quota moved to the balance: {{quota}}",
  "构图失败 {{task}}，补偿 {{quota}}": "Image task {{task}} failed, refunded {{quota}}",
  "异步任务执行失败 {{task}}，补偿 {{quota}}": "Async task {{task}} failed, refunded {{quota}}",
  // Manage.
  "管理员将用户额度从 {{before}} 修改为 {{after}}":
    "An administrator changed the user's quota from {{before}} to {{after}}",
};
