/**
 * English for the relay's texts that reach the console and /api: channel tests, balances and
 * model lists (the /v1 refusals themselves are a later step, docs/decisions/045).
 */
export const relayMessages: Record<string, string> = {
  "上游返回的余额无效（{{balance}}）": "The upstream returned an invalid balance ({{balance}})",
  该渠道类型不支持余额查询: "This channel type cannot report its balance",
  "上游返回 {{status}}": "The upstream answered {{status}}",
  "上游返回的不是 JSON": "The upstream did not answer with JSON",
  "余额查询失败：未设置 Base URL": "Balance query failed: no Base URL is set",
  "余额查询失败：{{reason}}": "Balance query failed: {{reason}}",
  请先填写密钥: "Please fill in the key first",
  "获取模型列表失败：上游返回 {{status}}": "Fetching the model list failed: the upstream answered {{status}}",
  "获取模型列表失败：{{reason}}": "Fetching the model list failed: {{reason}}",
  "后台任务队列暂时不可用（无法连接 Redis），请稍后重试":
    "The background job queue is unavailable (Redis cannot be reached), please try again later",
  测试已在运行中: "A test is already running",
  "响应时间 {{seconds}}s 超过阈值 {{limit}}s": "Response time {{seconds}}s exceeds the threshold {{limit}}s",
  "上游返回了无法识别的响应：{{reply}}": "The upstream returned a reply that could not be read: {{reply}}",
  该渠道类型不支持测试: "This channel type cannot be tested",
  "上游响应超时（{{seconds}} 秒）": "The upstream did not answer in time ({{seconds}} s)",
  "请求上游地址失败：{{reason}}": "Requesting the upstream address failed: {{reason}}",
  "无效的请求体：JSON 嵌套超过 {{depth}} 层": "Invalid request body: JSON nested deeper than {{depth}} levels",
  "无效的请求体：必须是 JSON 对象": "Invalid request body: it must be a JSON object",
  无效的令牌: "Invalid token",
  "无效的请求路径：错误的 % 转义": "Invalid request path: a broken % escape",
  // Words that end up in /api answers as data of a message (a status reason, a default name).
  手动禁用: "disabled by hand",
  自动禁用: "disabled automatically",
  已禁用: "Disabled",
  未知状态: "Unknown status",
  未知类型: "Unknown type",
  未知: "Unknown",
  聊天: "Chat",
  默认分组: "Default group",
  "{{label}}（{{detail}}）": "{{label}} ({{detail}})",
};
