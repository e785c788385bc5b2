/** English for tokens, redemption, top-up and usage refusals. */
export const tokenMessages: Record<string, string> = {
  "过期时间格式错误！": "The expiry time is malformed!",
  额度必须是整数: "The quota must be a whole number",
  额度不能为负数: "The quota cannot be negative",
  数量必须是整数: "The count must be a whole number",
  "数量至少为 1": "The count must be at least 1",
  "数量不能超过 {{max}}": "The count cannot exceed {{max}}",
  令牌名称过长: "The token name is too long",
  "{{field}} 必须是布尔值 true 或 false": "{{field}} must be the boolean true or false",
  "{{field}}必须是 0 到 {{max}} 之间的整数（0 表示不限制）":
    "{{field}} must be a whole number from 0 to {{max}} (0 means no limit)",
  "每分钟请求数限制（RPM）": "The requests-per-minute limit (RPM)",
  "每分钟 Token 数限制（TPM）": "The tokens-per-minute limit (TPM)",
  请输入名称: "Please enter a name",
  "IP 白名单格式错误：{{entry}}": "Malformed IP allow-list entry: {{entry}}",
  "无权使用分组 {{group}}": "You may not use the group {{group}}",
  过期时间不能早于当前时间: "The expiry time cannot be in the past",
  "创建数量必须在 1 到 {{max}} 之间": "The number to create must be from 1 to {{max}}",
  "{{message}}（批量创建会在名称后追加 {{count}} 个字符）":
    "{{message}} (batch creation appends {{count}} characters to the name)",
  "令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期":
    "The token has expired and cannot be enabled; change its expiry time first, or make it never expire",
  "令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度":
    "The token's quota is used up and it cannot be enabled; change its remaining quota first, or make it unlimited",
  无效的令牌状态: "Invalid token status",
  令牌不存在: "The token does not exist",
  任务失败: "Task failed",
};
